/**
 * CORS: every response may be read from any origin; every API path answers a preflight. Hono's
 * `cors` does the work.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { cors as honoCors } from "hono/cors";

/** Options of {@linkcode cors}. */
export interface CorsOptions {
  /** The methods a path answers, or `undefined` when the path is not an API endpoint. */
  methodsOf(path: string): readonly string[] | undefined;
}

/**
 * The response headers a page on another origin may read, sent with every response: without
 * them a browser hides the rate-limit figures, the request id and a redirect's `Location`.
 */
export const EXPOSED_HEADERS =
  "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id, Location";

/**
 * Adds `Access-Control-Allow-Origin: *` and `Access-Control-Expose-Headers` to every response,
 * and answers `OPTIONS` on an API path with 204 and the path's methods; any other `OPTIONS` is
 * left to the router (a 404, or a 405 with `Allow`).
 */
export function cors(options: CorsOptions): MiddlewareHandler {
  // Each list is one element: Hono joins a list's items with "," and ours are joined with ", ".
  const hono = honoCors({
    origin: "*",
    exposeHeaders: [EXPOSED_HEADERS],
    allowMethods: (_origin, c) => [[...options.methodsOf(c.req.path) ?? [], "OPTIONS"].join(", ")],
    allowHeaders: ["Content-Type"],
    maxAge: 86400,
  });
  return async function cors(c, next) {
    if (c.req.method !== "OPTIONS") return await hono(c, next);
    if (c.req.path.startsWith("/api/") && options.methodsOf(c.req.path)) {
      const preflight = await hono(c, next);
      // Hono varies a preflight by Access-Control-Request-Headers even when its list is fixed.
      for (const res of [c.res, preflight]) res?.headers.delete("Vary");
      return preflight;
    }
    // Hono's cors answers every OPTIONS with 204; these are the router's, with the two headers.
    await next();
    c.res.headers.set("Access-Control-Allow-Origin", "*");
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  };
}
