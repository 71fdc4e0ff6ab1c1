/**
 * Answers to HEAD that tell no false length. The router answers HEAD with its GET route's status
 * and headers and no body; an answer whose length its route never set would then go out saying
 * `Content-Length: 0`, which a HEAD may say only when GET sends nothing (RFC 9110, 8.6). Such an
 * answer gets an empty body stream instead, which goes out with no length at all. Pages, which
 * set their length, keep it.
 * @module
 */

// Statuses whose answers never carry a body.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** `response` to a HEAD request, its length left unsaid where its route did not set it. */
export function withoutFalseLength(response: Response): Response {
  if (
    response.body !== null || response.headers.has("content-length") ||
    NULL_BODY_STATUSES.has(response.status)
  ) {
    return response;
  }
  return new Response(ReadableStream.from<Uint8Array>([]), response);
}
