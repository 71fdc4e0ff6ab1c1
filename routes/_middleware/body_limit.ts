/**
 * The request body limit, answered with the API's JSON error.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";

/** Largest request body accepted: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Refuses a body over `maxBytes` with 413 and a JSON error. */
export function bodyLimit(maxBytes = MAX_BODY_BYTES): MiddlewareHandler {
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json({ error: `request body must be at most ${Math.floor(maxBytes / 1024)} KiB` }, 413),
  });
}
