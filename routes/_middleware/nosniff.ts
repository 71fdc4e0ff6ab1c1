/**
 * `X-Content-Type-Options: nosniff` on every answer with a body: an error sentence echoes what
 * the client sent (a path, a slug), and an export carries titles and notes anyone wrote, so no
 * browser should read either as anything but the type it is sent as.
 * @module
 */
import type { MiddlewareHandler } from "hono";

/** Adds `nosniff` to each response that says its content type. */
export function nosniff(): MiddlewareHandler {
  return async function nosniff(c, next) {
    await next();
    if (c.res.headers.has("content-type")) {
      c.res.headers.set("X-Content-Type-Options", "nosniff");
    }
  };
}
