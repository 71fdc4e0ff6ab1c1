/**
 * Compressing answers: pages, JSON and text over 1 KiB go out as `br` or `gzip` to a client that
 * takes it, streamed answers included, through the runtime's `CompressionStream`. An answer
 * without a body (the redirect) is never touched.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { parseAccept } from "hono/utils/accept";
// The types Hono's own compress middleware compresses (text, JSON, XML, SVG, scripts...).
import { COMPRESSIBLE_CONTENT_TYPE_REGEX as COMPRESSIBLE } from "hono/utils/compress";
import { concatBytes } from "../../lib/bytes.ts";

/** Options of {@linkcode compress}. */
export interface CompressOptions {
  /** Smallest body compressed, in bytes; default 1,024. */
  threshold?: number;
}

// The `Content-Encoding` sent, and the `CompressionStream` format that makes it.
const ENCODINGS = [["br", "brotli"], ["gzip", "gzip"]] as const;

/** An encoding the answer may be sent in. */
type Encoding = (typeof ENCODINGS)[number];

/**
 * Compresses each answer that has a body of a compressible type, has no encoding yet, allows
 * transforms, and is at least `threshold` bytes (read up to that much to know, when its length is
 * not said), in the best encoding the request's `Accept-Encoding` takes: `br`, else `gzip`.
 * Every such answer says `Vary: Accept-Encoding`, compressed or not. HEAD answers the headers GET
 * would.
 */
export function compress(options: CompressOptions = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024;
  return async function compress(c, next) {
    await next();
    const res = c.res;
    if (res.body === null || res.status === 204 || res.status === 206 || res.status === 304) return;
    if (!COMPRESSIBLE.test(res.headers.get("content-type") ?? "")) return;
    if (res.headers.has("content-encoding")) return;
    if (/(^|,)\s*no-transform\s*(,|$)/i.test(res.headers.get("cache-control") ?? "")) return;
    addVary(res.headers);
    const encoding = chooseEncoding(c.req.header("accept-encoding"));
    if (encoding === null) return;
    const length = res.headers.get("content-length");
    let body: ReadableStream<Bytes> = res.body;
    if (length === null) {
      const start = await readStart(res.body, threshold);
      if (start.whole) {
        // All of it is in hand and it is small: sent as it is, now with its length.
        const bytes = concatBytes(...start.chunks);
        c.res = new Response(bytes, res);
        c.res.headers.set("content-length", String(bytes.byteLength));
        return;
      }
      body = start.stream;
    } else if (Number(length) < threshold) return;
    // Hono carries the answer's headers over to the one put in its place: changed after.
    c.res = new Response(body.pipeThrough(new CompressionStream(encoding[1])), res);
    c.res.headers.delete("content-length");
    c.res.headers.set("content-encoding", encoding[0]);
  };
}

/** The best encoding `header` takes (`br`, then `gzip`; `*` counts as gzip), or `null`. */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const item of parseAccept(header)) accepted.set(item.type.toLowerCase(), item.q);
  const any = accepted.get("*") ?? 0;
  for (const encoding of ENCODINGS) {
    if ((accepted.get(encoding[0]) ?? (encoding[0] === "gzip" ? any : 0)) > 0) return encoding;
  }
  return null;
}

/** Adds `Accept-Encoding` to `Vary`, unless it is there. */
function addVary(headers: Headers): void {
  const vary = headers.get("vary");
  if (vary === null) headers.set("vary", "Accept-Encoding");
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) {
    headers.set("vary", `${vary}, Accept-Encoding`);
  }
}

/** Bytes of a body. */
type Bytes = Uint8Array<ArrayBuffer>;

/** The start of a body: all of it (`whole`) when shorter than the threshold, else the stream. */
type BodyStart =
  | { whole: true; chunks: Bytes[] }
  | { whole: false; stream: ReadableStream<Bytes> };

/**
 * Reads `body` until `threshold` bytes are in hand or it ends. When it goes on, returns a stream
 * of what was read followed by the rest, read as it is asked for (a streamed answer stays
 * streamed); cancelling it cancels the body.
 */
async function readStart(
  body: ReadableStream<Bytes>,
  threshold: number,
): Promise<BodyStart> {
  const reader = body.getReader();
  const chunks: Bytes[] = [];
  let size = 0;
  // A body that fails this early fails as it is sent, as it would have without this reading.
  let failure: { error: unknown } | null = null;
  try {
    while (size < threshold) {
      const { done, value } = await reader.read();
      if (done) return { whole: true, chunks };
      chunks.push(value);
      size += value.byteLength;
    }
  } catch (error) {
    failure = { error };
  }
  const stream = new ReadableStream<Bytes>({
    async pull(controller) {
      const first = chunks.shift();
      if (first !== undefined) return controller.enqueue(first);
      if (failure !== null) return controller.error(failure.error);
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { whole: false, stream };
}
