/**
 * The pages of `GET /links`: the list of live links, and one link's own page.
 * @module
 */
import { LinkPage } from "../../components/LinkPage.tsx";
import { LinksPage } from "../../components/LinksPage.tsx";
import {
  findLinkPage,
  getLiveLink,
  isSlugLike,
  readVisitsLeft,
  shortUrlOf,
  visibleUrl,
} from "../../lib/links/mod.ts";
import { readLinkFigures } from "../../lib/stats/mod.ts";
import type { AppDeps } from "./env.ts";
import { renderPage } from "./html.ts";
import { linkNotFound } from "../_404.tsx";

/** Links on a page; the next are a cursor away. */
export const PAGE_SIZE = 50;

/** A page of the live links matching `q`, from `cursor`, with the notice of a removal. */
export async function linksListPage(
  deps: AppDeps,
  { q, cursor, removed }: { q: string; cursor: string | undefined; removed: string | undefined },
): Promise<Response> {
  // The notice of a deletion only for a name no live link has: a link crafted to say a live
  // one is gone says nothing.
  const gone = removed !== undefined && isSlugLike(removed) &&
    await getLiveLink(deps.store, removed) === null;
  // Protected destinations stay hidden here, whatever cookies the reader holds.
  const { entries, next } = await findLinkPage(deps.store, {
    baseUrl: deps.config.baseUrl,
    query: q,
    limit: PAGE_SIZE,
    cursor,
  });
  const page = (
    <LinksPage
      entries={entries}
      q={q}
      cursor={cursor}
      next={next}
      now={deps.store.now()}
      lifetimeMs={deps.config.linkTtlMs}
      removed={gone ? removed : undefined}
    />
  );
  return renderPage(page, 200, { "Cache-Control": "no-store" });
}

/** The live link `slug`'s own page, with its figures; the 404 page (for `path`) when none. */
export async function linkOwnPage(deps: AppDeps, slug: string, path: string): Promise<Response> {
  const now = deps.store.now();
  const found = isSlugLike(slug) ? await readLinkFigures(deps.store, slug, now) : null;
  // The destination, from the record itself: never a protected one, whatever the cookies.
  const record = found?.status === "live" ? await getLiveLink(deps.store, slug) : null;
  if (found?.status !== "live" || record === null) return linkNotFound(deps, path, slug);
  const [visitsLeft] = await readVisitsLeft(deps.store, [record]);
  const page = (
    <LinkPage
      figures={found.figures}
      shortUrl={shortUrlOf(slug, deps.config.baseUrl)}
      url={visibleUrl(record)}
      note={record.note}
      visits={record.maxVisits === undefined
        ? null
        : { left: visitsLeft ?? 0, max: record.maxVisits }}
      now={now}
      lifetimeMs={deps.config.linkTtlMs}
    />
  );
  return renderPage(page, 200, { "Cache-Control": "no-store" });
}
