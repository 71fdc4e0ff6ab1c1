/**
 * The request body limit. A body over it, or one that cannot be read, is not refused here: the
 * request is marked, and the body is refused with 413 or 400 and a JSON error when its handler
 * reads it (`readBody`), which a rate limit has counted by then (every request counts, refused
 * ones included).
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { InvalidInputError } from "../../lib/errors.ts";
import { unreadableBody } from "../_lib/body.ts";
import type { AppEnv } from "../_lib/env.ts";

/** Largest request body accepted: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

// The methods of the endpoints that read a body. A body sent with any other method is never
// read, so it is left to the router to answer (405 or 404), whatever its size.
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Marks a body over `maxBytes` to be refused: at once when its declared length is over, else
 * as it is read here (a body sent without a length). A body the client cuts off on the way,
 * frames wrongly or sends in too many pieces is marked as a 400, not a fault of ours. (A wrong
 * frame that arrives in the same packet as the headers never reaches the service: the runtime
 * closes the connection without an answer.)
 */
export function bodyLimit(maxBytes = MAX_BODY_BYTES): MiddlewareHandler<AppEnv> {
  const message = `request body must be at most ${Math.floor(maxBytes / 1024)} KiB`;
  const tooLarge = () => new HTTPException(413, { message });
  return async function bodyLimit(c, next) {
    const raw = c.req.raw;
    if (!raw.body || !BODY_METHODS.has(raw.method)) return await next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      if (Number(declared) > maxBytes) c.set("bodyRefused", tooLarge());
      return await next();
    }
    const body = await readUpTo(raw.body, maxBytes, tooLarge).catch(unreadableBody);
    if (body instanceof Error) {
      c.set("bodyRefused", body);
    } else {
      // A request built anew, not copied from the original: copying it would tie the copy to
      // the original's abort signal, which Deno's server warns about.
      c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body });
    }
    return await next();
  };
}

// A body sent in more pieces than this is refused: each piece costs the event loop a read, and
// a client can send a byte a piece, thousands to a packet.
const MAX_PIECES = 1024;

/**
 * The whole of `body`, or the error that refuses it (the rest left unread): `tooLarge()` past
 * `maxBytes`, a 400 past {@linkcode MAX_PIECES} pieces.
 */
async function readUpTo(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array<ArrayBuffer> | Error> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) return tooLarge();
    if (chunks.length === MAX_PIECES) {
      return new InvalidInputError(`request body must come in at most ${MAX_PIECES} pieces`);
    }
    chunks.push(chunk);
  }
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.length;
  }
  return whole;
}
