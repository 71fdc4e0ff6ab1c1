/**
 * Streaming a response from an async source, in chunks of a few KiB.
 * @module
 */

// Pieces are gathered into chunks of about this many characters before they are sent.
const CHUNK_CHARS = 16 * 1024;

/**
 * A response whose body is `pieces`, pulled as the client reads. The first piece is awaited
 * before the response is made, so a store that is down gives a real error status rather than
 * a truncated 200; sources should do their first read before their first piece.
 */
export async function streamResponse(
  pieces: AsyncIterable<string>,
  headers: Record<string, string>,
): Promise<Response> {
  const iterator = pieces[Symbol.asyncIterator]();
  let pending: IteratorResult<string> | null = await iterator.next();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = "";
      for (;;) {
        const next: IteratorResult<string> = pending ?? await iterator.next();
        pending = null;
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
        if (chunk.length >= CHUNK_CHARS) break;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(body, { status: 200, headers });
}

/**
 * `items` as the pieces of a JSON array; the opening bracket travels with the first item, so
 * nothing is sent before the source has answered.
 */
export async function* jsonArray<T>(items: AsyncIterable<T>): AsyncGenerator<string> {
  let separator = "[";
  for await (const item of items) {
    yield separator + JSON.stringify(item);
    separator = ",";
  }
  yield separator === "[" ? "[]" : "]";
}
