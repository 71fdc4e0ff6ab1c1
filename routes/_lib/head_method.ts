/**
 * HTTP HEAD answers that tell no false length: the router's HEAD of a GET whose body has no known
 * length would say `Content-Length: 0` (RFC 9110, 8.6 forbids it), so such answers go out with
 * an empty body stream and no length at all.
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
