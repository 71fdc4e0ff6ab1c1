/**
 * The request body limit. A body over it is not read here: the request is marked, and the body
 * is refused with 413 and a JSON error when its handler reads it (`readBody`), which a rate
 * limit has counted by then (every request counts, refused ones included).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { InvalidInputError } from "../../lib/errors.ts";
import { isCutOff } from "../_lib/body.ts";
import type { AppEnv } from "../_lib/env.ts";

/** Largest request body accepted: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

// The methods of the endpoints that read a body. A body sent with any other method is never
// read, so it is left to the router to answer (405 or 404), whatever its size.
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Marks a body over `maxBytes` to be refused: at once when its declared length is over, else
 * as it is read here (a body sent without a length). A body the client cuts off on the way is
 * a 400, not a fault of ours.
 */
export function bodyLimit(maxBytes = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const refusal = `request body must be at most ${Math.floor(maxBytes / 1024)} KiB`;
  return async function bodyLimit(c, next) {
    const raw = c.req.raw;
    if (!raw.body || !BODY_METHODS.has(raw.method)) return await next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      if (Number(declared) > maxBytes) c.set("bodyRefused", refusal);
      return await next();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of raw.body) {
        size += chunk.length;
        if (size > maxBytes) {
          c.set("bodyRefused", refusal);
          return await next();
        }
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
