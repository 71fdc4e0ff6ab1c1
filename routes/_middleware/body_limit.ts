/**
 * The request body limit, answered with the API's JSON error.
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { InvalidInputError } from "../../lib/errors.ts";
import { isCutOff } from "../_lib/body.ts";

/** Largest request body accepted: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

// The methods of the API's endpoints that read a body. A body sent with any other method is
// never read, so it is left to the router to answer (405 or 404), whatever its size.
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Refuses a body over `maxBytes` with 413 and a JSON error: at once when its declared length is
 * over, else as it is read here (a body sent without a length). A body the client cuts off on the
 * way is a 400, not a fault of ours.
 */
export function bodyLimit(maxBytes = MAX_BODY_BYTES): MiddlewareHandler {
  const tooLarge = (c: Context) =>
    c.json({ error: `request body must be at most ${Math.floor(maxBytes / 1024)} KiB` }, 413);
  return async function bodyLimit(c, next) {
    const raw = c.req.raw;
    if (!raw.body || !BODY_METHODS.has(raw.method)) return await next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      return Number(declared) > maxBytes ? tooLarge(c) : await next();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of raw.body) {
        size += chunk.length;
        if (size > maxBytes) return tooLarge(c);
        chunks.push(chunk);
      }
    } catch (error) {
      if (isCutOff(error)) throw new InvalidInputError("request body was cut off");
      throw error;
    }
    const body = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.length;
    }
    // A request built anew, not copied from the original: copying it would tie the copy to the
    // original's abort signal, which Deno's server warns about.
    c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body });
    return await next();
  };
}
