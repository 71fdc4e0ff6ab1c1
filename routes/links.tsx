/**
 * `GET /links`: the links page; `POST /links/remove`: deleting a link without JavaScript, after a
 * page that asks first.
 * @module
 */
import { Hono } from "hono";
import { LinkPage } from "../components/LinkPage.tsx";
import { LinksPage } from "../components/LinksPage.tsx";
import { RemovePage } from "../components/RemovePage.tsx";
import { LinkNotFoundError } from "../lib/errors.ts";
import {
  existingSlug,
  findLinkPage,
  getLiveLink,
  isLinkCursor,
  isSlugLike,
  type LinkConfirmation,
  readVisitsLeft,
  shortUrlOf,
  visibleUrl,
} from "../lib/links/mod.ts";
import { RATE_LIMITS } from "../lib/rate_limit/mod.ts";
import { readLinkFigures } from "../lib/stats/mod.ts";
import { parseInput } from "../lib/validation.ts";
import { readObjectBody } from "./_lib/body.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";
import { isBrowserForm } from "./_lib/negotiate.ts";
import { redirectWithPolicy } from "./_lib/redirect.ts";
import { removeLinkOf } from "./_lib/remove.ts";
import { linkNotFound } from "./_404.tsx";
import { rateLimit } from "./_middleware/rate_limit.ts";

/** Links on a page; the next are a cursor away. */
export const PAGE_SIZE = 50;

/** Longest filter accepted, in characters. */
const MAX_QUERY = 200;

/**
 * The route: `GET /links/<slug>` a live link's page; `GET /links?q=&cursor=` a page of the live
 * links matching `q`, newest first; `POST /links/remove` a page asking to confirm, and with
 * `confirm=yes` the removal (a browser's form gets 303 to `/links?removed=<slug>`, keeping `q`;
 * another client `{ok: true, slug}`). An unknown slug gets the 404 page.
 */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/", rateLimit(deps, RATE_LIMITS.links), async (c) => {
      const q = filterOf(c.req.query("q"));
      const given = c.req.query("cursor");
      const cursor = given !== undefined && isLinkCursor(given) ? given : undefined;
      const removed = c.req.query("removed");
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
    })
    // A link's own page shares the stats' allowance: it reads the same figures.
    .get("/:slug", rateLimit(deps, RATE_LIMITS.stats), async (c) => {
      const slug = c.req.param("slug");
      const now = deps.store.now();
      const found = isSlugLike(slug) ? await readLinkFigures(deps.store, slug, now) : null;
      // The destination, from the record itself: never a protected one, whatever the cookies.
      const record = found?.status === "live" ? await getLiveLink(deps.store, slug) : null;
      if (found?.status !== "live" || record === null) return linkNotFound(deps, c.req.path, slug);
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
    })
    .post("/remove", async (c) => {
      const body = await readObjectBody(c);
      const slug = parseInput(existingSlug, body.slug);
      const q = filterOf(body.q);
      if (body.confirm !== "yes") {
        const record = await getLiveLink(deps.store, slug);
        if (record === null) throw new LinkNotFoundError(slug);
        return renderPage(<RemovePage slug={slug} title={record.title} q={q} />, 200, {
          "Cache-Control": "no-store",
        });
      }
      await removeLinkOf(deps, slug);
      // One rule for every form: a 303 for a browser's form post, JSON for any other client.
      if (!isBrowserForm(c)) return c.json({ ok: true, slug } satisfies LinkConfirmation);
      const back = new URLSearchParams(q ? { q, removed: slug } : { removed: slug });
      return redirectWithPolicy(c, `/links?${back}`, 303);
    });
}

// The filter as given in a query or a form: trimmed and bounded; anything else is none.
function filterOf(value: unknown): string {
  return typeof value === "string" ? value.trim().slice(0, MAX_QUERY) : "";
}
