/**
 * `GET /links`: the links page; `POST /links/remove`: deleting a link without JavaScript, after a
 * page that asks first.
 * @module
 */
import { Hono } from "hono";
import { RemovePage } from "../components/RemovePage.tsx";
import { LinkNotFoundError } from "../lib/errors.ts";
import { existingSlug, getLiveLink, isLinkCursor, type LinkActionDone } from "../lib/links/mod.ts";
import { RATE_LIMITS } from "../lib/rate_limit/mod.ts";
import { parseInput } from "../lib/validation.ts";
import { readObjectBody } from "./_lib/body.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";
import { isBrowserForm } from "./_lib/negotiate.ts";
import { redirectWithPolicy } from "./_lib/redirect.ts";
import { removeLinkOf } from "./_lib/remove.ts";
import { linkOwnPage, linksListPage } from "./_lib/links_pages.tsx";
import { rateLimit } from "./_middleware/rate_limit.ts";

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
      return await linksListPage(deps, { q, cursor, removed: c.req.query("removed") });
    })
    // A link's own page shares the stats' allowance: it reads the same figures.
    .get("/:slug", rateLimit(deps, RATE_LIMITS.stats), async (c) => {
      const slug = c.req.param("slug");
      return await linkOwnPage(deps, slug, c.req.path);
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
      if (!isBrowserForm(c)) return c.json({ ok: true, slug } satisfies LinkActionDone);
      const back = new URLSearchParams(q ? { q, removed: slug } : { removed: slug });
      return redirectWithPolicy(c, `/links?${back}`, 303);
    });
}

// The filter as given in a query or a form: trimmed and bounded; anything else is none.
function filterOf(value: unknown): string {
  return typeof value === "string" ? value.trim().slice(0, MAX_QUERY) : "";
}
