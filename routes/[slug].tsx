/**
 * `GET|HEAD /<slug>`: the redirect; `POST /<slug>`: opening the link by a deliberate act, the Open
 * button of a limited link. A locked protected link answers 401 with its unlock page; an expired
 * or unknown one the 404 page.
 * @module
 */
import { type Context, Hono } from "hono";
import { type DatedLinkRecord, hasVisitLimit, mayNameLink, resolveLink } from "../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { REDIRECT_ROUTE } from "./_middleware/metrics.ts";
import { isUnlocked } from "./_lib/unlock.ts";
import { withoutTrailingSlash } from "./_lib/redirect.ts";
import { recordVisit, redirectTo } from "./_lib/short_link.ts";
import { unlockPage } from "./_lib/unlock_page.tsx";
import { openerHeaders, openLimitedLink, openPage, seeDestination } from "./_lib/limited_visit.tsx";
import { refuseMarkedBody } from "./_lib/body.ts";
import { notFound } from "./_404.tsx";
import { blockedLinkPage } from "./_lib/blocked_link.tsx";
export { spec } from "./_lib/redirect_spec.ts";
export { fastRedirect } from "./_lib/fast_redirect.ts";

/** The route: everything the fast path leaves, first reads of a link included. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get(REDIRECT_ROUTE, async (c) => {
    const found = await liveLink(c, deps);
    if (found instanceof Response) return found;
    const record = found;
    // A limited link opens only by its Open button (POST): a GET, any client's, gets the page.
    if (hasVisitLimit(record)) return await openPage(c, deps, record);
    if (c.req.method !== "HEAD") recordVisit(deps, record, c.req.raw.headers, c.env);
    // Neither an id nor, unless asked for, an access line: see `redirectTo`.
    c.set("redirect", true);
    return redirectTo(record);
  }).post(REDIRECT_ROUTE, async (c) => {
    // A page's name (`/docs`) is no link's: the app's answer, a 405 with the page's methods.
    if (!mayNameLink(c.req.param("slug"))) return c.notFound();
    // The body is read for the referrer alone, and refused only when too large or unreadable.
    refuseMarkedBody(c);
    const found = await liveLink(c, deps);
    if (found instanceof Response) return found;
    const record = found;
    const headers = await openerHeaders(c, deps);
    const visit = () => recordVisit(deps, record, headers, c.env);
    if (hasVisitLimit(record)) return await openLimitedLink(c, deps, record, visit);
    // A link without a limit opens as its GET does, with the answer a form post expects.
    visit();
    return seeDestination(record);
  }).get(`${REDIRECT_ROUTE}/`, (c) => {
    // A short link pasted with a slash after it: 301 to the link's own path, the query kept,
    // where the link (or the 404 page) answers.
    const slug = c.req.param("slug");
    if (!mayNameLink(slug)) return notFound(c, deps);
    return withoutTrailingSlash(c, `/${slug}`);
  });
}

/**
 * The live link the request names, or the answer when there is none to send it to: the 404 page,
 * or the unlock page (401) of a protected link without its cookie. A protected link's HEAD is
 * that 401, cookie or not: it never shows the destination (the contract).
 */
async function liveLink(
  c: Context<AppEnv, typeof REDIRECT_ROUTE>,
  deps: AppDeps,
): Promise<DatedLinkRecord | Response> {
  const slug = c.req.param("slug");
  if (!mayNameLink(slug)) return notFound(c, deps);
  const found = await resolveLink(deps.store, slug, deps.linkCache);
  if (found.status !== "live") return notFound(c, deps, found);
  const { record } = found;
  if (deps.blocklist.blocksUrl(record.url)) return blockedLinkPage(slug);
  if (
    record.passHash !== null && (c.req.method === "HEAD" || !(await isUnlocked(c, deps, record)))
  ) {
    return unlockPage({ slug }, 401);
  }
  return record;
}
