/**
 * `X-Content-Type-Options: nosniff` on every JSON answer, as pages, images and static files
 * already carry it: an error sentence echoes what the client sent (a path, a slug), and no
 * browser should read that as anything but JSON.
 * @module
 */
import type { MiddlewareHandler } from "hono";

/** Adds `nosniff` to each response whose type is JSON. */
export function nosniffJson(): MiddlewareHandler {
  return async function nosniffJson(c, next) {
    await next();
    if (c.res.headers.get("content-type")?.startsWith("application/json")) {
      c.res.headers.set("X-Content-Type-Options", "nosniff");
    }
  };
}
