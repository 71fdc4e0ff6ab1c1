/**
 * The runtime's ceiling for a redirect: a bare `Deno.serve` answering every request with the
 * same 302 and the redirect's headers. Usage: `deno run --allow-net bench/ceiling.ts PORT`.
 * @module
 */
const port = Number(Deno.args[0] ?? 8099);
Deno.serve({
  port,
  hostname: "127.0.0.1",
  onListen: () => console.log(`ceiling listening on ${port}`),
}, () =>
  new Response(null, {
    status: 302,
    headers: {
      Location: "https://example.com/page/1",
      "Referrer-Policy": "unsafe-url",
      "Cache-Control": "no-store",
      "Access-Control-Allow-Origin": "*",
    },
  }));
