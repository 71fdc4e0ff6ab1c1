/**
 * The least any redirect by path does: a bare `Deno.serve` that takes the request, reads its
 * URL, and answers a 302 to a destination built from its path, with the redirect's headers.
 * Usage: `deno run --allow-net bench/ceiling.ts PORT`.
 * @module
 */
const port = Number(Deno.args[0] ?? 8099);
Deno.serve({
  port,
  hostname: "127.0.0.1",
  onListen: () => console.log(`ceiling listening on ${port}`),
}, (request) => {
  const url = request.url;
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  return new Response(null, {
    status: 302,
    headers: {
      Location: `https://example.com/page${path}`,
      "Referrer-Policy": "unsafe-url",
      "Cache-Control": "no-store",
      "Access-Control-Allow-Origin": "*",
    },
  });
});
