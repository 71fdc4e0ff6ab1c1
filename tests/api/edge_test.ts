import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { isReservedSlug } from "../../lib/links/mod.ts";
import type { LogLine } from "../../lib/log/mod.ts";
import { topLevelSegments } from "../../routes/mod.ts";
import { buildIslands } from "../../tasks/bundle.ts";

/** Every API path and the methods it answers. */
const API_METHODS: Record<string, string[]> = {
  "/api/create": ["POST"],
  "/api/bulk": ["POST"],
  "/api/unlock": ["POST"],
  "/api/check": ["GET", "HEAD"],
  "/api/remove": ["DELETE"],
  "/api/unshorten": ["GET", "HEAD"],
  "/api/links": ["GET", "HEAD"],
  "/api/stats": ["GET", "HEAD"],
  "/api/export": ["GET", "HEAD"],
  "/api/version": ["GET", "HEAD"],
  "/api/changelog": ["GET", "HEAD"],
  "/api/sweep": ["GET", "HEAD", "DELETE", "POST"],
  "/api/preview": ["GET", "HEAD"],
  "/api/qr": ["GET", "HEAD"],
  "/api/health": ["GET", "HEAD"],
  "/api/openapi.json": ["GET", "HEAD"],
};

const ALL_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

Deno.test("every API path answers an OPTIONS preflight with its methods", async () => {
  await using t = await testApp();
  for (const [path, methods] of Object.entries(API_METHODS)) {
    const res = await t.request(path, {
      method: "OPTIONS",
      headers: { Origin: "https://else.example", "Access-Control-Request-Method": methods[0]! },
    });
    assertEquals(res.status, 204, path);
    assertEquals(res.headers.get("access-control-allow-origin"), "*");
    assertEquals(
      res.headers.get("access-control-allow-methods"),
      [...methods, "OPTIONS"].join(", "),
      path,
    );
    assertEquals(res.headers.get("access-control-allow-headers"), "Content-Type");
  }
});

Deno.test("a wrong method answers 405 with Allow and a JSON error", async () => {
  await using t = await testApp();
  for (const [path, methods] of Object.entries(API_METHODS)) {
    for (const method of ALL_METHODS.filter((m) => !methods.includes(m))) {
      const res = await t.request(path, { method });
      assertEquals(res.status, 405, `${method} ${path}`);
      assertEquals(res.headers.get("allow"), [...methods, "OPTIONS"].join(", "));
      assertEquals(res.headers.get("access-control-allow-origin"), "*");
      assertStringIncludes((await res.json()).error, "method not allowed");
    }
  }
});

Deno.test("a wrong method on a live link's name or a page answers 405 with Allow, not a 404", async () => {
  await using t = await testApp();
  assertEquals(
    (await t.json("/api/create", { url: "example.com/live", slug: "live" })).status,
    201,
  );
  assertEquals((await t.request("/live")).status, 302); // cached: the fast path has it now
  for (const method of [...ALL_METHODS.filter((m) => m !== "GET" && m !== "POST"), "OPTIONS"]) {
    const res = await t.request("/live", { method });
    assertEquals(res.status, 405, method);
    assertEquals(res.headers.get("allow"), "GET, HEAD, POST");
    assertEquals(res.headers.get("access-control-allow-origin"), "*");
    assertEquals(await res.json(), { error: "method not allowed; /live answers GET, HEAD, POST" });
  }
  const page = await t.request("/docs", { method: "POST" });
  assertEquals([page.status, page.headers.get("allow")], [405, "GET, HEAD"]);
  // A name no live link has is still the 404 page that says it is free.
  const free = await t.request("/nobody", { method: "POST" });
  assertEquals(free.status, 404);
  assertStringIncludes(await free.text(), "free");
  assertEquals((await t.request("/live")).headers.get("location"), "https://example.com/live");
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/unshorten?slug=live")).json()).clicks, 2);
});

Deno.test("unknown API paths answer a JSON 404", async () => {
  await using t = await testApp();
  for (const path of ["/api/nope", "/api", "/api/", "/api/create/extra", "/api/links/1"]) {
    for (const method of ["GET", "POST", "OPTIONS"]) {
      const res = await t.request(path, { method });
      assertEquals(res.status, 404, `${method} ${path}`);
      assertEquals(res.headers.get("content-type"), "application/json");
      assertEquals(res.headers.get("access-control-allow-origin"), "*");
      assertEquals(res.headers.get("x-content-type-options"), "nosniff", "it echoes the path");
      assertStringIncludes((await res.json()).error, "no such endpoint");
    }
  }
  const made = await t.json("/api/create", { url: "example.com" });
  assertEquals(made.headers.get("x-content-type-options"), "nosniff", "every JSON answer");
});

Deno.test("every answer with a body says nosniff, text and CSV included; the redirect has none", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "sniffed", title: "<b>bold</b>" });
  for (const path of ["/api/export", "/api/export?format=csv", "/metrics", "/", "/api/version"]) {
    const res = await t.request(path);
    await res.body?.cancel();
    assertEquals(res.status, 200, path);
    assertEquals(res.headers.get("x-content-type-options"), "nosniff", path);
  }
  const redirect = await t.request("/sniffed");
  assertEquals(redirect.status, 302);
  assertEquals(redirect.headers.get("x-content-type-options"), null);
});

Deno.test("every response carries Access-Control-Allow-Origin and the exposed headers", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "cors" });
  await t.json("/api/create", { url: "example.com", slug: "locked", pass: "secret" });
  for (let i = 0; i < 60; i++) await (await t.request("/api/stats")).body?.cancel();
  const responses = [
    await t.request("/cors"),
    await t.request("/cors"), // the cached link's redirect, answered before the router
    await t.request("/cors", { method: "HEAD" }),
    await t.request("/locked"),
    await t.request("/nothing"),
    await t.request("/api/check?slug=cors"),
    await t.request("/api/check"),
    await t.json("/api/create", "{bad"),
    await t.request("/static/style.css"),
    await t.request("/api/version"),
    await t.request("/api/stats"), // over the limit: a 429
    await t.request("/api/create", { method: "OPTIONS" }),
    await t.request("/api/nothing"),
    await t.request("/docs"),
  ];
  assertEquals(responses.map((res) => res.status), [
    302,
    302,
    302,
    401,
    404,
    200,
    400,
    400,
    200,
    200,
    429,
    204,
    404,
    200,
  ]);
  for (const res of responses) {
    await res.body?.cancel();
    assertEquals(res.headers.get("access-control-allow-origin"), "*", res.url);
    assertEquals(
      res.headers.get("access-control-expose-headers"),
      "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id, Location",
      `${res.url} ${res.status}`,
    );
  }
});

Deno.test("static paths no file can have are 404 pages, and nothing is printed raw", async () => {
  const logged: LogLine[] = [];
  await using t = await testApp({ log: (line) => logged.push(line) });
  const served = await t.request("/static/style.css");
  assertEquals(served.status, 200);
  assertEquals(served.headers.get("content-type"), "text/css; charset=utf-8");
  await served.body?.cancel();
  const printed: unknown[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void printed.push(args);
  try {
    for (const path of ["/static/" + "a".repeat(300), "/static/a%00b", "/static/style.css/x"]) {
      const res = await t.request(path);
      assertEquals(res.status, 404, path);
      assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
      await res.body?.cancel();
    }
  } finally {
    console.warn = warn;
  }
  assertEquals(printed, []);
  assertEquals(logged.filter((line) => line.level !== "info"), []);
});

Deno.test("static files carry their length, a validator, and caching fit for their names", async () => {
  await using t = await testApp();
  const css = await t.request("/static/style.css");
  const bytes = (await css.arrayBuffer()).byteLength;
  assertEquals(css.headers.get("content-length"), String(bytes));
  assertEquals(css.headers.get("cache-control"), "no-cache");
  assertEquals(css.headers.get("x-content-type-options"), "nosniff");
  const tag = css.headers.get("etag")!;
  assert(/^W\/"[0-9a-f]+-[0-9a-f]+"$/.test(tag), tag);

  const head = await t.request("/static/style.css", { method: "HEAD" });
  assertEquals(head.status, 200);
  assertEquals(head.headers.get("content-length"), String(bytes), "HEAD tells GET's length");
  assertEquals(head.headers.get("content-type"), "text/css; charset=utf-8");
  assertEquals(await head.text(), "");

  for (const given of [tag, tag.slice(2), `"other", ${tag}`, "*"]) {
    const again = await t.request("/static/style.css", { headers: { "If-None-Match": given } });
    assertEquals(again.status, 304, given);
    assertEquals(again.headers.get("etag"), tag);
    assertEquals(await again.text(), "");
  }
  const changed = await t.request("/static/style.css", { headers: { "If-None-Match": '"x"' } });
  assertEquals(changed.status, 200);
  await changed.body?.cancel();

  // The bundles as the service is started with them (built here unless up to date).
  const build = (await buildIslands({ log: () => {} })).manifest;
  const hashed = build.files.find((name) => /-[A-Z0-9]{8}\.js$/.test(name))!;
  const chunk = await t.request(`/static/build/${hashed}`);
  assertEquals(chunk.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assertEquals(chunk.headers.get("content-type"), "text/javascript; charset=utf-8");
  await chunk.body?.cancel();
  const entry = await t.request("/static/build/_client.js");
  assertEquals(entry.headers.get("cache-control"), "no-cache", "the entry keeps its name");
  await entry.body?.cancel();

  const gzip = { "Accept-Encoding": "br;q=1, gzip;q=0.8" };
  const packed = await t.request("/static/style.css", { headers: gzip });
  assertEquals(packed.headers.get("content-encoding"), "gzip");
  assertEquals(packed.headers.get("vary"), "Accept-Encoding");
  const packedTag = packed.headers.get("etag")!;
  assert(packedTag !== tag && packedTag.endsWith('-gz"'), packedTag);
  const packedBytes = new Uint8Array(await packed.arrayBuffer());
  assertEquals(packed.headers.get("content-length"), String(packedBytes.byteLength));
  assert(packedBytes.byteLength < bytes / 2, `${packedBytes.byteLength} of ${bytes} bytes`);
  const unpacked = new Response(
    new Blob([packedBytes]).stream().pipeThrough(new DecompressionStream("gzip")),
  );
  assertEquals(await unpacked.text(), await Deno.readTextFile("static/style.css"));
  const packedHead = await t.request("/static/style.css", { method: "HEAD", headers: gzip });
  assertEquals(packedHead.headers.get("content-length"), String(packedBytes.byteLength));
  await packedHead.body?.cancel();
  const packedAgain = await t.request("/static/style.css", {
    headers: { ...gzip, "If-None-Match": packedTag },
  });
  assertEquals(packedAgain.status, 304);
  const refused = await t.request("/static/style.css", {
    headers: { "Accept-Encoding": "gzip;q=0", "If-None-Match": packedTag },
  });
  assertEquals(refused.status, 200, "the plain copy is another version");
  assertEquals(refused.headers.get("content-encoding"), null);
  await refused.body?.cancel();

  const slash = await t.request("/static/style.css/");
  assertEquals(slash.status, 404);
  await slash.body?.cancel();
});

Deno.test("a body the client cuts off is a 400, with or without a length, not an unexpected error", async () => {
  const logged: LogLine[] = [];
  await using t = await testApp({ log: (line) => logged.push(line) });
  const lengths: Record<string, string>[] = [{}, { "Content-Length": "100" }];
  for (const headers of lengths) {
    const cutOff = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"url": "exa'));
        controller.error(new Deno.errors.BadResource("Cannot read body"));
      },
    });
    const res = await t.send(
      new Request(`${t.config.baseUrl}/api/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: cutOff,
      }),
    );
    assertEquals(res.status, 400, JSON.stringify(headers));
    assertEquals(await res.json(), { error: "request body was cut off" });
  }
  assertEquals(logged.filter((line) => line.level !== "info"), []);
});

Deno.test("a body sent in more than 1,024 pieces is a 400, whatever its size", async () => {
  await using t = await testApp();
  const pieces = (count: number) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"url": "example.com/pieces"'));
        for (let i = 0; i < count; i++) controller.enqueue(new TextEncoder().encode(" "));
        controller.enqueue(new TextEncoder().encode("}"));
        controller.close();
      },
    });
  const send = (count: number) =>
    t.send(
      new Request(`${t.config.baseUrl}/api/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: pieces(count),
      }),
    );
  const many = await send(2_000);
  assertEquals(many.status, 400);
  assertEquals(await many.json(), { error: "request body must come in at most 1024 pieces" });
  assertEquals((await send(1_000)).status, 201);
});

Deno.test("every body-taking endpoint refuses more than 64 KiB with 413", async () => {
  await using t = await testApp();
  const big = JSON.stringify({ filler: "x".repeat(65 * 1024) });
  for (const path of ["/api/create", "/api/bulk", "/api/unlock", "/api/sweep"]) {
    const res = await t.json(path, big);
    assertEquals(res.status, 413, path);
    assertEquals(await res.json(), { error: "request body must be at most 64 KiB" });
  }
});

Deno.test("a body over the limit is refused after it is counted against the rate limit", async () => {
  await using t = await testApp();
  const big = JSON.stringify({ urls: ["example.com"], filler: "x".repeat(65 * 1024) });
  const declared = { "Content-Length": String(big.length) }; // refused unread, by its length
  for (let i = 0; i < 5; i++) {
    const res = await t.json("/api/bulk", big, {
      client: "203.0.113.7",
      headers: i % 2 ? declared : {},
    });
    assertEquals(res.status, 413);
    assertEquals(res.headers.get("ratelimit-remaining"), String(4 - i));
  }
  const after = await t.json("/api/bulk", { urls: ["example.com"] }, { client: "203.0.113.7" });
  assertEquals(after.status, 429);
  assertEquals((await (await t.request("/api/links")).json()).length, 0);
});

Deno.test("a body refused as it is read is counted against the rate limit, under its route", async () => {
  const logged: LogLine[] = [];
  await using t = await testApp({ log: (line) => logged.push(line) });
  const encode = (text: string) => new TextEncoder().encode(text);
  const bodies = [
    () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 2_000; i++) controller.enqueue(encode(" "));
          controller.close();
        },
      }),
    () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encode('{"urls": ["exa'));
          controller.error(new Deno.errors.BadResource("Cannot read body"));
        },
      }),
  ];
  for (let i = 0; i < 5; i++) {
    const res = await t.send(
      new Request(`${t.config.baseUrl}/api/bulk`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: bodies[i % 2]!(),
      }),
      "203.0.113.8",
    );
    assertEquals(res.status, 400);
    assertEquals(res.headers.get("ratelimit-remaining"), String(4 - i));
    await res.body?.cancel();
  }
  const after = await t.json("/api/bulk", { urls: ["example.com"] }, { client: "203.0.113.8" });
  assertEquals(after.status, 429);
  const routes = logged.filter((line) => line.msg === "request").map((line) => line.route);
  assertEquals(routes, Array(6).fill("/api/bulk"));
});

Deno.test("a DELETE with a body over the limit is refused with 413, and removes nothing", async () => {
  await using t = await testApp();
  assertEquals((await t.json("/api/create", { url: "example.com", slug: "kept" })).status, 201);
  const big = "x".repeat(65 * 1024);
  const remove = await t.request("/api/remove?slug=kept", { method: "DELETE", body: big });
  assertEquals(remove.status, 413);
  const sweep = await t.request("/api/sweep?slug=kept", { method: "DELETE", body: big });
  assertEquals(sweep.status, 413);
  assertEquals(sweep.headers.get("ratelimit-remaining"), "3"); // counted, as refusals are
  assertEquals((await t.request("/kept")).status, 302);
  // A DELETE with a body within the limit is answered as one without.
  const small = await t.request("/api/remove?slug=kept", { method: "DELETE", body: "{}" });
  assertEquals(small.status, 200);
});

Deno.test("a page's form post over the limit is refused with 413 too, and removes nothing", async () => {
  await using t = await testApp();
  assertEquals((await t.json("/api/create", { url: "example.com", slug: "kept" })).status, 201);
  const res = await t.request("/links/remove", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
    body: `slug=kept&confirm=yes&filler=${"x".repeat(65 * 1024)}`,
  });
  assertEquals(res.status, 413);
  assertStringIncludes(await res.text(), "request body must be at most 64 KiB");
  assertEquals((await t.request("/kept")).status, 302);
});

Deno.test("every top-level route of the app is a reserved word", async () => {
  await using t = await testApp();
  const segments = topLevelSegments(t.app);
  assert(segments.includes("api"));
  assert(segments.includes("static"));
  for (const segment of segments) assert(isReservedSlug(segment), segment);
});

Deno.test("a store that is down gives 503 JSON errors, and version and changelog still answer", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "before" });
  t.store.kv.close();
  const failing: [string, RequestInit?][] = [
    ["/api/create", { method: "POST", body: JSON.stringify({ url: "example.com" }) }],
    ["/api/bulk", { method: "POST", body: JSON.stringify({ urls: ["example.com"] }) }],
    ["/api/check?slug=before"],
    ["/api/qr?slug=before"],
    ["/api/unshorten?slug=before"],
    ["/api/links"],
    ["/api/export"],
    ["/api/remove?slug=before", { method: "DELETE" }],
    ["/api/sweep"],
    ["/api/unlock", { method: "POST", body: JSON.stringify({ slug: "before", pass: "x" }) }],
  ];
  for (const [path, init] of failing) {
    const res = await t.request(path, init);
    assertEquals(res.status, 503, path);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { error: "storage is unavailable, try again shortly" });
  }
  const page = await t.request("/before");
  assertEquals(page.status, 503);
  assertStringIncludes(await page.text(), "storage is unavailable");
  assertEquals((await t.request("/api/version")).status, 200);
  assertEquals((await t.request("/api/changelog")).status, 200);
});
