/**
 * The request body limit, answered with the API's JSON error.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { InvalidInputError } from "../../lib/errors.ts";
import { isCutOff } from "../_lib/body.ts";

/** Largest request body accepted: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Refuses a body over `maxBytes` with 413 and a JSON error. A body sent without a length is
 * counted as it is read here; one the client cuts off on the way is a 400, not a fault of ours.
 */
export function bodyLimit(maxBytes = MAX_BODY_BYTES): MiddlewareHandler {
  const limit = honoBodyLimit({
    maxSize: maxBytes,
    onError: (c) =>
      c.json({ error: `request body must be at most ${Math.floor(maxBytes / 1024)} KiB` }, 413),
  });
  return async function bodyLimit(c, next) {
    try {
      return await limit(c, next);
    } catch (error) {
      if (isCutOff(error)) throw new InvalidInputError("request body was cut off");
      throw error;
    }
  };
}
