/**
 * Refuses, for the whole app, the state-changing requests a page of another site sends without
 * a preflight (`routes/_lib/cross_site.ts` holds the rule).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../_lib/env.ts";
import { CROSS_SITE_SIMPLE, CROSS_SITE_UNLOCK, crossSiteRefusal } from "../_lib/cross_site.ts";

/** Options of {@linkcode crossSite}. */
export interface CrossSiteOptions {
  /** `BASE_URL`'s origin: a page there is this service's own. */
  baseOrigin: string;
}

/**
 * Answers 403 JSON to a request the cross-site rule refuses. Mounted before the body is read and
 * before any rate limit, visit or click, so the refused request changes and counts nothing.
 */
export function crossSite(options: CrossSiteOptions): MiddlewareHandler<AppEnv> {
  return async function crossSite(c, next) {
    const refusal = crossSiteRefusal({
      method: c.req.method,
      path: c.req.path,
      fetchSite: c.req.header("sec-fetch-site"),
      origin: c.req.header("origin"),
      host: c.req.header("host"),
      contentType: c.req.header("content-type"),
    }, options.baseOrigin);
    if (refusal === null) return await next();
    const error = refusal === "unlock" ? CROSS_SITE_UNLOCK : CROSS_SITE_SIMPLE;
    return c.json({ error }, 403, { "Cache-Control": "no-store" });
  };
}
