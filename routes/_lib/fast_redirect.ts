/**
 * The redirect's fast path, tried before the router (docs/decisions/2026-11-22-redirect-fast-path.md).
 * @module
 */
import { cachedOpenLink } from "../../lib/links/open.ts";
import type { AppDeps, ConnectionInfo } from "./env.ts";
import { AccessEntry, durationMsSince, writeAccess } from "../_middleware/access_log.ts";
import { countAnswered, REDIRECT_ROUTE } from "../_middleware/metrics.ts";
import { requestIdFor } from "../_middleware/request_id.ts";
import { recordVisit, redirectTo } from "./short_link.ts";

/**
 * The redirect's fast path, tried before the router: a GET or HEAD of a single path segment
 * naming a live, open link this process has cached (`cachedOpenLink`, the rule the route
 * shares) is answered at once, with the same headers, count and click as the route gives.
 * Anything else returns `null` and goes on to the router. Public APIs only: the request's
 * headers are read through `request.headers`, and each answer is a `Response` of its own.
 */
export function fastRedirect(
  deps: AppDeps,
): (request: Request, connection?: ConnectionInfo) => Response | null {
  const { store, linkCache, metrics, log, blocklist } = deps;
  const logRedirects = deps.config.logRedirects;
  return function fastRedirect(request, connection) {
    const method = request.method;
    if (method !== "GET" && method !== "HEAD") return null;
    const url = request.url;
    // The path after the authority; a query, a second segment or an escape never matches a slug.
    const slug = url.slice(url.indexOf("/", url.indexOf("//") + 2) + 1);
    const now = store.now();
    const record = cachedOpenLink(linkCache, slug, now);
    // A link to a host the operator blocked goes to the route, which says so.
    if (record === null || blocklist.blocksUrl(record.url)) return null;
    const start = performance.now();
    if (method === "GET") recordVisit(deps, record, request.headers, connection, now);
    const response = redirectTo(record);
    countAnswered(metrics, REDIRECT_ROUTE, method, 302, start);
    if (logRedirects) {
      const id = requestIdFor(request.headers.get("x-request-id"));
      const took = durationMsSince(start);
      writeAccess(
        log,
        new AccessEntry(now, method, REDIRECT_ROUTE, `/${record.slug}`, 302, took, id),
      );
    }
    return response;
  };
}
