import { assert, assertEquals } from "../_helpers/assert.ts";
import { TEST_BASE_URL, testApp } from "../_helpers/app.ts";
import { until } from "../_helpers/wait.ts";
import { loadConfig } from "../../fresh.config.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";
import { createStore } from "../../lib/kv/store.ts";
import { createDeps } from "../../routes/_lib/deps.ts";
import { createApp } from "../../routes/mod.ts";
import { type Logger, silentLogger } from "../../lib/log/mod.ts";
import { AccessEntry } from "../../routes/_middleware/access_log.ts";

const WEEK = 7 * 86_400_000;

function headersOf(res: Response): Record<string, string> {
  return Object.fromEntries(res.headers);
}

Deno.test("a cached link redirects exactly as a first read does", async () => {
  const lines: Record<string, unknown>[] = [];
  await using t = await testApp({ log: (line) => lines.push(line) });
  await t.json("/api/create", { url: "https://example.com/fast", slug: "fast" });
  const first = await t.request("/fast", { headers: { "User-Agent": DESKTOP_UA } });
  assertEquals(t.linkCache.get("fast")?.record.url, "https://example.com/fast");
  const second = await t.request("/fast", { headers: { "User-Agent": DESKTOP_UA } });
  assertEquals(second.status, 302);
  assertEquals(headersOf(second), headersOf(first));
  const given = await t.request("/fast", { headers: { "X-Request-Id": "trace-42" } });
  for (const res of [first, second, given]) {
    assertEquals(res.headers.get("x-request-id"), null, "a redirect carries no request id");
  }
  const redirects = lines.filter((line) => line.msg === "request" && line.route === "/:slug");
  assertEquals(redirects, [], "no redirect is access-logged by default");
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/unshorten?slug=fast")).json()).clicks, 3);
  const metrics = await (await t.request("/metrics")).text();
  const counted = metrics.split("\n").find((line) =>
    line.startsWith('lapse_http_requests_total{route="/:slug",method="GET",status="302"}')
  );
  assertEquals(counted?.split(" ")[1], "3", "metrics count every redirect");
});

Deno.test("each redirect is an answer of its own: changing one leaves the next as it was", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/own", slug: "own" });
  const first = await t.request("/own"); // the route
  const second = await t.request("/own"); // cached
  const expected = headersOf(second);
  for (const res of [first, second]) {
    res.headers.set("location", "https://example.com/changed");
    res.headers.set("x-changed", "1");
  }
  const third = await t.request("/own");
  assertEquals(headersOf(third), expected);
  assertEquals(third.headers.get("location"), "https://example.com/own");
});

Deno.test("with LOG_REDIRECTS=1 every redirect is access-logged, with the id it was sent", async () => {
  const lines: Record<string, unknown>[] = [];
  await using t = await testApp({
    log: (line) => lines.push(line),
    env: { LOG_REDIRECTS: "1" },
  });
  await t.json("/api/create", { url: "https://example.com/fast", slug: "fast" });
  await t.request("/fast"); // the route
  const given = await t.request("/fast", { headers: { "X-Request-Id": "trace-42" } }); // cached
  assertEquals(given.headers.get("x-request-id"), null);
  const redirects = lines.filter((line) => line.msg === "request" && line.route === "/:slug");
  assertEquals(redirects.map((line) => [line.method, line.path, line.status]), [
    ["GET", "/fast", 302],
    ["GET", "/fast", 302],
  ]);
  assertEquals(redirects[1]!.requestId, "trace-42");
});

Deno.test("a cached link's access line waits as an AccessEntry, never as an object literal", async () => {
  // An object literal's objects can be moved to the old generation wholesale by V8, and with
  // them every string a waiting line holds (see AccessEntry).
  const waiting: unknown[] = [];
  const log: Logger = () => {};
  log.later = (fields) => void waiting.push(fields);
  await using t = await testApp({ log, env: { LOG_REDIRECTS: "1" } });
  await t.json("/api/create", { url: "https://example.com/w", slug: "waits" });
  await t.request("/waits"); // the first read goes through the router, which logs at once
  await t.request("/waits", { headers: { "X-Request-Id": "trace-7" } });
  assertEquals(waiting.length, 1);
  const entry = waiting[0];
  assert(entry instanceof AccessEntry);
  assertEquals([entry.method, entry.route, entry.path, entry.status, entry.requestId], [
    "GET",
    "/:slug",
    "/waits",
    302,
    "trace-7",
  ]);
});

Deno.test("a cached link's HEAD answers without a body and counts no click", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/h", slug: "heady" });
  await t.request("/heady", { method: "HEAD" });
  const res = await t.request("/heady", { method: "HEAD", headers: { "User-Agent": DESKTOP_UA } });
  assertEquals(res.status, 302);
  assertEquals(await res.text(), "");
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/unshorten?slug=heady")).json()).clicks, 0);
});

Deno.test("a cached link that expires answers the 404 page", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/e", slug: "ending" });
  assertEquals((await t.request("/ending")).status, 302);
  t.advance(WEEK);
  assertEquals((await t.request("/ending")).status, 404);
});

Deno.test("a removed link never redirects after its remove answered", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/r", slug: "removed" });
  assertEquals((await t.request("/removed")).status, 302);
  assertEquals((await t.request("/api/remove?slug=removed", { method: "DELETE" })).status, 200);
  assertEquals((await t.request("/removed")).status, 404);
});

Deno.test("a read that started before a removal is not cached after it", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/r", slug: "racing" });
  const { resolveLink, removeLink } = await import("../../lib/links/mod.ts");
  const reading = resolveLink(t.store, "racing", t.linkCache); // reads the store, then caches
  await removeLink(t.store, "racing", { removals: t.deps.removals });
  await reading;
  assertEquals(t.linkCache.get("racing"), undefined);
  assertEquals((await t.request("/racing")).status, 404);
});

/** One service instance over `kv`: its own link cache and app, as a process has. */
async function instanceOn(kv: Deno.Kv) {
  const config = loadConfig({ BASE_URL: TEST_BASE_URL });
  const deps = await createDeps(config, createStore(kv), {
    log: silentLogger(),
    removals: { pollMs: 10 },
  });
  return { deps, app: createApp(deps) };
}

/**
 * Two instances over one in-memory store, the first watching it for removals, as two processes
 * on one KV file are; disposing stops the watch and closes the store.
 */
async function twoInstances() {
  const kv = await Deno.openKv(":memory:");
  try {
    const one = await instanceOn(kv);
    const two = await instanceOn(kv);
    one.deps.removals.start();
    return {
      one,
      two,
      async [Symbol.asyncDispose]() {
        await one.deps.removals.stop();
        kv.close();
      },
    };
  } catch (error) {
    kv.close();
    throw error;
  }
}

Deno.test("a removal in another instance clears this instance's cache almost at once", async () => {
  await using pair = await twoInstances();
  const { one, two } = pair;
  const res = await two.app.request("/api/create", {
    method: "POST",
    body: JSON.stringify({ url: "https://example.com/x", slug: "shared" }),
  });
  assertEquals(res.status, 201);
  assertEquals((await one.app.request("/shared")).status, 302);
  assertEquals(one.deps.linkCache.size, 1);
  await two.app.request("/api/remove?slug=shared", { method: "DELETE" });
  await until(() => one.deps.linkCache.size === 0, 1_000);
  assertEquals(one.deps.linkCache.size, 0);
  assertEquals((await one.app.request("/shared")).status, 404);
});

Deno.test("a create-and-remove loop in another instance leaves this instance's other links cached", async () => {
  await using pair = await twoInstances();
  const { one, two } = pair;
  const create = (slug: string) =>
    two.app.request("/api/create", {
      method: "POST",
      body: JSON.stringify({ url: `https://example.com/${slug}`, slug }),
    });
  assertEquals((await create("popular")).status, 201);
  assertEquals((await one.app.request("/popular")).status, 302);
  for (let i = 0; i < 5; i++) {
    assertEquals((await create(`churn-${i}`)).status, 201);
    assertEquals((await one.app.request(`/churn-${i}`)).status, 302);
    const removed = await two.app.request(`/api/remove?slug=churn-${i}`, { method: "DELETE" });
    assertEquals(removed.status, 200);
    // The removal answers once this instance has dropped that link, and that link only.
    assertEquals(one.deps.linkCache.get(`churn-${i}`), undefined);
    assertEquals(one.deps.linkCache.get("popular")?.record.slug, "popular");
    assertEquals((await one.app.request(`/churn-${i}`)).status, 404);
  }
});

Deno.test("a cached link with a query string still redirects", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/q", slug: "query" });
  await t.request("/query");
  const res = await t.request("/query?utm_source=x");
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "https://example.com/q");
});

Deno.test("served over HTTP, concurrent redirects each carry their own link and no id", async () => {
  await using t = await testApp();
  const slugs = ["alpha", "bravo", "charlie"];
  for (const slug of slugs) {
    await t.json("/api/create", { url: `https://example.com/${slug}`, slug });
  }
  await using server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request, info) => t.app.fetch(request, info),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const visit = async (slug: string, id: string) => {
    const res = await fetch(`${origin}/${slug}`, {
      redirect: "manual",
      headers: { "X-Request-Id": id, "User-Agent": DESKTOP_UA },
    });
    await res.body?.cancel();
    return [res.status, res.headers.get("location"), res.headers.get("x-request-id")];
  };
  // The first visit of each link reads it through the router; the rest are served from cache.
  for (const slug of slugs) await visit(slug, "warm");
  const asked = Array.from({ length: 300 }, (_, i) => [slugs[i % 3]!, `req-${i}`] as const);
  const answered = await Promise.all(asked.map(([slug, id]) => visit(slug, id)));
  assertEquals(answered, asked.map(([slug]) => [302, `https://example.com/${slug}`, null]));
  await t.request("/api/remove?slug=bravo", { method: "DELETE" });
  assertEquals((await visit("bravo", "after"))[0], 404);
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/unshorten?slug=alpha")).json()).clicks, 101);
});
