/**
 * The `Host` header: the runtime builds a request's URL from it and the request line's path, so
 * a value with a `/`, `?` or `#` in it would move the path the app routes on away from the one the
 * client asked for (`Host: x/metrics?` and `GET /page` would reach `/metrics`). Such a request is
 * refused before it is routed.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../_lib/env.ts";

// A host as a URL spells it (RFC 3986): a bracketed IP literal or a name of unreserved,
// escaped and sub-delimiter characters, then an optional port. Empty when the client sent
// none: the runtime then uses its own.
const HOST = /^(?:(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?)?$/;

/**
 * Whether `host`, a `Host` header's value, is a host and port and nothing else, and one a URL
 * can hold (`x%zz`, `[:::]` and port 99999 are not).
 */
export function isPlainHost(host: string): boolean {
  return host === "" || (HOST.test(host) && URL.canParse(`http://${host}/`));
}

/** Refuses with 400 a request whose `Host` header is not a host and port. */
export function plainHost(): MiddlewareHandler<AppEnv> {
  return async function plainHost(c, next) {
    const host = c.req.header("host");
    if (host !== undefined && !isPlainHost(host)) {
      throw new HTTPException(400, { message: "the Host header must be a host name and port" });
    }
    await next();
  };
}
