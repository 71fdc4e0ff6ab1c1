/**
 * Answers to HEAD that tell no false length. The router answers HEAD with its GET route's status
 * and headers and no body; an answer whose route gave it a body of unknown length would then go
 * out saying `Content-Length: 0`, which a HEAD may say only when GET sends nothing (RFC 9110,
 * 8.6). {@linkcode noteHeadLengths} notes such answers while the route's body is still there,
 * and {@linkcode withoutFalseLength} gives them an empty body stream, which goes out with no
 * length at all. A page, which sets its length, keeps it; an answer without a body (a redirect)
 * says 0, as its GET does.
 * @module
 */
import type { MiddlewareHandler } from "hono";

// HEAD requests whose GET answer had a body of unknown length.
const lengthUnknown = new WeakSet<Request>();

/** Notes a HEAD request whose answer has a body and no `Content-Length`. */
export function noteHeadLengths(): MiddlewareHandler {
  return async function noteHeadLengths(c, next) {
    await next();
    if (c.req.method !== "HEAD" || c.res.body === null) return;
    if (!c.res.headers.has("content-length")) lengthUnknown.add(c.req.raw);
  };
}

/** `response` to `request`, with its length left unsaid when it was never known. */
export function withoutFalseLength(request: Request, response: Response): Response {
  if (!lengthUnknown.has(request)) return response;
  return new Response(ReadableStream.from<Uint8Array>([]), response);
}
