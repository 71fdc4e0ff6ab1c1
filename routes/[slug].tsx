/**
 * `GET|HEAD /<slug>`: the redirect. A locked protected link answers 401 with its unlock page;
 * an expired or unknown one the 404 page.
 * @module
 */
import { Hono } from "hono";
import { isLimited, mayNameLink, opensAtOnce, resolveLink } from "../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { REDIRECT_ROUTE } from "./_middleware/metrics.ts";
import { isUnlocked } from "./_lib/unlock.ts";
import { withoutTrailingSlash } from "./_lib/redirect.ts";
import { recordVisit, redirectTo } from "./_lib/short_link.ts";
import { unlockPage } from "./_lib/unlock_page.tsx";
import { visitLimitedLink } from "./_lib/limited_visit.tsx";
import { notFound } from "./_404.tsx";
import { blockedLinkPage } from "./_lib/blocked_link.tsx";
export { spec } from "./_lib/redirect_spec.ts";
export { fastRedirect } from "./_lib/fast_redirect.ts";

/** The route: everything the fast path leaves, first reads of a link included. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get(REDIRECT_ROUTE, async (c) => {
    const slug = c.req.param("slug");
    if (!mayNameLink(slug)) return notFound(c, deps);
    const found = await resolveLink(deps.store, slug);
    if (found.status !== "live") return notFound(c, deps, found);
    const { record } = found;
    if (deps.blocklist.blocksUrl(record.url)) return blockedLinkPage(slug);
    const head = c.req.method === "HEAD";
    if (!opensAtOnce(record, deps.store.now())) {
      // A protected link's HEAD never shows its destination, cookie or not (the contract): it
      // answers as the locked link's GET does.
      if (record.passHash !== null && (head || !(await isUnlocked(c, deps, record)))) {
        return unlockPage({ slug }, 401);
      }
    }
    if (isLimited(record)) {
      return await visitLimitedLink(c, deps, record, {
        recordVisit: () => recordVisit(deps, record, c.req.raw.headers, c.env),
        redirect: () => {
          c.set("redirect", true);
          return redirectTo(record);
        },
      });
    }
    if (!head) recordVisit(deps, record, c.req.raw.headers, c.env);
    // Neither an id nor, unless asked for, an access line: see `redirectTo`.
    c.set("redirect", true);
    return redirectTo(record);
  }).get(`${REDIRECT_ROUTE}/`, (c) => {
    // A short link pasted with a slash after it: 301 to the link's own path, the query kept,
    // where the link (or the 404 page) answers.
    const slug = c.req.param("slug");
    if (!mayNameLink(slug)) return notFound(c, deps);
    return withoutTrailingSlash(c, `/${slug}`);
  });
}
