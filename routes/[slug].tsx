/**
 * `GET|HEAD /<slug>`: the redirect. A locked protected link answers 401 with its unlock page;
 * an expired or unknown one the 404 page.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  cachedOpenLink,
  type DatedLinkRecord,
  isLimited,
  mayNameLink,
  opensAtOnce,
  resolveLink,
  SLUG_LIKE_PATTERN,
} from "../lib/links/mod.ts";
import { proxyCountry } from "../lib/clicks/mod.ts";
import { describeError, logLine } from "../lib/log/mod.ts";
import { errorResponse, type RouteSpec } from "./_openapi/mod.ts";
import { StoreUnavailableError } from "../lib/errors.ts";
import { clientOf } from "./_lib/client.ts";
import type { AppDeps, AppEnv, ConnectionInfo } from "./_lib/env.ts";
import { AccessEntry, writeAccess } from "./_middleware/access_log.ts";
import { EXPOSED_HEADERS } from "./_middleware/cors.ts";
import { REDIRECT_ROUTE } from "./_middleware/metrics.ts";
import { requestIdFor } from "./_middleware/request_id.ts";
import { isUnlocked } from "./_lib/unlock.ts";
import { REDIRECT_POLICY, withoutTrailingSlash } from "./_lib/redirect.ts";
import { unlockPage } from "./_lib/unlock_page.tsx";
import { visitLimitedLink } from "./_lib/limited_visit.tsx";
import { notFound } from "./_404.tsx";

const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string(), example: '<!DOCTYPE html><html lang="en">…' } },
});
// A page for a browser, `{error}` JSON for a client whose `Accept` does not name HTML.
const pageOrError = (description: string, sentence: string) => ({
  description,
  content: { ...page(description).content, ...errorResponse(description, sentence).content },
});

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Redirect",
    summary: "Follow a short link",
    description: "Redirects to the destination. A protected link needs its unlock cookie; " +
      "without it the answer is 401 with the unlock page, for every client (the contract). " +
      "An expired or unknown slug gets the 404 page, which says where an expired link pointed (a protected one: only that it " +
      "was protected) or that the name is free. HEAD answers the same status and headers " +
      "without a body, and records no click; a protected link's HEAD is the 401, cookie or " +
      "not, so it never shows the destination. A link made with `maxVisits` opens for that " +
      "many people: a person's GET takes a visit in the store before the 302, and the last " +
      "one retires the link, whose next visitor gets the 404 page saying it was used up. A " +
      "bot or link-preview crawler (as the click figures tell them), and any HEAD, gets 200 " +
      "with a page saying the link opens for people, no `Location` and no destination, and " +
      "takes nothing. `/<slug>/`, with a slash after it, answers 301 " +
      "to `/<slug>`. Not rate limited.",
    path: z.object({ slug: z.string().regex(SLUG_LIKE_PATTERN).describe("The link's slug") }),
    parameterExample: { slug: "hello" },
    responses: {
      302: {
        description: "On to the destination",
        headers: {
          Location: { description: "The destination", example: "https://example.com/a/long/path" },
          "Referrer-Policy": {
            description: "`unsafe-url`: the referrer travels on",
            example: "unsafe-url",
          },
          "Cache-Control": {
            description: "`no-store`: no cache absorbs a visit",
            example: "no-store",
          },
        },
      },
      200: page(
        "A link made with `maxVisits`, to a bot or link-preview crawler, or its HEAD: a page " +
          "saying it opens for people, without the destination",
      ),
      401: page(
        "A protected link without its unlock cookie, or any protected link's HEAD: the unlock page",
      ),
      404: page(
        "No live link has the slug: the 404 page, which says so when the link was used up",
      ),
      503: pageOrError(
        "The store did not answer, or too many people opened a limited link at once " +
          "(`Retry-After`): an error page, or JSON to a client that does not ask for HTML",
        new StoreUnavailableError(null).message,
      ),
    },
    store: false,
    readsUnlockCookie: true,
  },
};

/**
 * The 302 to `record`'s destination: the referrer travels on, and no cache keeps the visit. It
 * carries no `X-Request-Id` and is not access-logged unless `LOG_REDIRECTS=1` (docs/api.md).
 */
export function redirectTo(record: DatedLinkRecord): Response {
  return new Response(null, { status: 302, headers: redirectHeaders(record) });
}

// Each link's redirect headers, made once for the record a cache holds.
const headersOfRecord = new WeakMap<DatedLinkRecord, [string, string][]>();

function redirectHeaders(record: DatedLinkRecord): [string, string][] {
  let headers = headersOfRecord.get(record);
  if (headers === undefined) {
    headers = [
      ["location", record.url],
      ...Object.entries(REDIRECT_POLICY),
      ["access-control-allow-origin", "*"],
      ["access-control-expose-headers", EXPOSED_HEADERS],
    ];
    headersOfRecord.set(record, headers);
  }
  return headers;
}

/** Records a GET's visit for the click figures; tracking never breaks a redirect. */
function recordVisit(
  deps: AppDeps,
  record: DatedLinkRecord,
  headers: Headers,
  connection: ConnectionInfo | undefined,
  now?: number,
): void {
  try {
    const trusted = deps.config.trustProxy;
    deps.clicks.recordVisit(
      record,
      headers.get("user-agent") ?? "",
      headers.get("referer") ?? "",
      clientOf(headers, connection, trusted),
      trusted ? proxyCountry((name) => headers.get(name)) : "",
      now,
    );
  } catch (error) {
    deps.log(logLine("error", "recording a click failed", { error: describeError(error) }));
  }
}

/**
 * The redirect's fast path, tried before the router: a GET or HEAD of a single path segment
 * naming a live, open link this process has cached (`cachedOpenLink`, the rule the route below
 * shares) is answered at once, with the same headers, count and click as the route gives.
 * Anything else returns `null` and goes on to the router. Public APIs only: the request's
 * headers are read through `request.headers`, and each answer is a `Response` of its own.
 */
export function fastRedirect(
  deps: AppDeps,
): (request: Request, connection?: ConnectionInfo) => Response | null {
  const { store, metrics, log } = deps;
  const logRedirects = deps.config.logRedirects;
  return function fastRedirect(request, connection) {
    const method = request.method;
    if (method !== "GET" && method !== "HEAD") return null;
    const url = request.url;
    // The path after the authority; a query, a second segment or an escape never matches a slug.
    const slug = url.slice(url.indexOf("/", url.indexOf("//") + 2) + 1);
    const now = store.now();
    const record = cachedOpenLink(store, slug, now);
    if (record === null) return null;
    const start = performance.now();
    if (method === "GET") recordVisit(deps, record, request.headers, connection, now);
    const response = redirectTo(record);
    const seconds = (performance.now() - start) / 1000;
    metrics.requests.inc(REDIRECT_ROUTE, method, 302);
    metrics.redirectSeconds.observe(seconds);
    if (logRedirects) {
      const id = requestIdFor(request.headers.get("x-request-id"));
      const durationMs = Math.round(seconds * 1e6) / 1000;
      writeAccess(
        log,
        new AccessEntry(now, method, REDIRECT_ROUTE, `/${record.slug}`, 302, durationMs, id),
      );
    }
    return response;
  };
}

/** The route: everything the fast path leaves, first reads of a link included. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get(REDIRECT_ROUTE, async (c) => {
    const slug = c.req.param("slug");
    if (!mayNameLink(slug)) return notFound(c, deps);
    const found = await resolveLink(deps.store, slug);
    if (found.status !== "live") return notFound(c, deps, found);
    const { record } = found;
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
