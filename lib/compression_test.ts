import { assert, assertEquals } from "../tests/_helpers/assert.ts";
import { gzipBest } from "./compression.ts";

async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function gzipDefault(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

Deno.test("gzipBest: a browser's gunzip gives the bytes back", async () => {
  for (const text of ["", "a", "<p>lapse</p>".repeat(500), "é\u{1F600}\0".repeat(33)]) {
    const bytes = new TextEncoder().encode(text);
    const packed = await gzipBest(bytes);
    assertEquals([packed[0], packed[1]], [0x1f, 0x8b]); // a gzip member, not raw deflate
    assertEquals(new TextDecoder().decode(await gunzip(packed)), text);
  }
});

Deno.test("gzipBest: no larger than the default level on text like the scripts", async () => {
  const script = new TextEncoder().encode(
    Array.from({ length: 400 }, (_, i) => `function f${i}(a){return a.map(x=>x*${i % 7})}`)
      .join(";"),
  );
  const best = (await gzipBest(script)).byteLength;
  assert(best <= await gzipDefault(script), `${best} bytes`);
});
