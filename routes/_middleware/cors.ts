/**
 * CORS: every response may be read from any origin; every API path answers a preflight.
 * @module
 */
import type { MiddlewareHandler } from "hono";

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
 * and answers `OPTIONS` on an API
 * path with 204 and the path's methods.
 */
export function cors(options: CorsOptions): MiddlewareHandler {
  return async function cors(c, next) {
    if (c.req.method === "OPTIONS" && c.req.path.startsWith("/api/")) {
      const methods = options.methodsOf(c.req.path);
      if (methods) {
        return c.body(null, 204, {
          "Access-Control-Allow-Origin": "*",
          "Access-Control-Expose-Headers": EXPOSED_HEADERS,
          "Access-Control-Allow-Methods": [...methods, "OPTIONS"].join(", "),
          "Access-Control-Allow-Headers": "Content-Type",
          "Access-Control-Max-Age": "86400",
        });
      }
    }
    await next();
    c.res.headers.set("Access-Control-Allow-Origin", "*");
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  };
}
