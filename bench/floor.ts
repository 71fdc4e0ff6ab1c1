/**
 * The floor under the redirect: a bare `Deno.serve` that reads what the redirect must read of
 * each request (method, path, `User-Agent`, `Referer`, `X-Request-Id`, the peer address), finds
 * the slug in a map, and answers that link's 302 with the request id, as the service does
 * (`routes/_lib/reusable_response.ts`). The clock is read as the redirect reads it; no visit
 * is recorded, nothing is counted or logged.
 * What it costs beyond the ceiling (`bench/ceiling.ts`) is what any redirect with the service's
 * headers costs on this runtime.
 * Usage: `deno run --allow-net bench/floor.ts PORT`; it answers the bench's slugs `b0`...
 * @module
 */
import { headersOf } from "../routes/_lib/request_headers.ts";
import { ResponseReuse, type ReusableResponse } from "../routes/_lib/reusable_response.ts";
import { requestIdFor } from "../routes/_middleware/request_id.ts";

const port = Number(Deno.args[0] ?? 8098);
// Each slug's 302, built when first asked for, as the service's cache does.
const redirects = new Map<string, ReusableResponse>();
const reuse = new ResponseReuse();

function redirectOf(slug: string): ReusableResponse | null {
  let built = redirects.get(slug);
  if (built === undefined) {
    if (!/^b[0-9a-f]+$/.test(slug)) return null;
    built = reuse.build(302, {
      location: `https://example.com/page/${parseInt(slug.slice(1), 16)}`,
      "referrer-policy": "unsafe-url",
      "cache-control": "no-store",
      "access-control-allow-origin": "*",
    }, "x-request-id");
    redirects.set(slug, built);
  }
  return built;
}

Deno.serve({
  port,
  hostname: "127.0.0.1",
  onListen: () => console.log(`floor listening on ${port}`),
}, (request, info) => {
  const method = request.method;
  const url = request.url;
  const built = method === "GET" || method === "HEAD"
    ? redirectOf(url.slice(url.indexOf("/", url.indexOf("//") + 2) + 1))
    : null;
  if (built === null) return new Response("not found", { status: 404 });
  // The clock and the facts the redirect reads; each read is a call into the runtime.
  Date.now();
  const start = performance.now();
  const headers = headersOf(request);
  const id = requestIdFor(headers.get("x-request-id"));
  headers.get("user-agent");
  headers.get("referer");
  info.remoteAddr.hostname;
  performance.now() - start;
  return built.answer(id, true);
});
