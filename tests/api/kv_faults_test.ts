import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import type { Faults } from "../_helpers/faults.ts";
import type { OpenApiLike } from "../_helpers/hostile.ts";
import { until } from "../_helpers/wait.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";
import type { Hono } from "hono";
import type { LogLine } from "../../lib/log/mod.ts";
import type { AppEnv } from "../../routes/_lib/env.ts";

const STORE_DOWN = "storage is unavailable, try again shortly";
/** Whether each page (not in the API document) reads the store, or a rate limit kept there. */
const PAGES_NEEDING_STORE: Record<string, boolean> = {
  "/": false,
  "/about": false,
  "/changelog": false,
  "/docs": false,
  "/links": true,
  "/links/remove": true,
  "/links/:slug": true,
  "/stats": true,
  // A page asked for with a trailing slash is sent to its path, reading nothing.
  "/about/": false,
  "/changelog/": false,
  "/docs/": false,
  "/links/": false,
  "/stats/": false,
  // So is a short link asked for with one.
  "/:slug/": false,
};

/** One request the test sends while the store is down and again once it is back. */
interface Probe {
  name: string;
  path: string;
  init: RequestInit;
  /** Whether the store's failure must show as 503. */
  needsStore: boolean;
}

/**
 * A request for every operation of the API document (with its own examples; any slug is
 * `slug`), whose `needsStore` is whether the document lists a 503; and for every page mounted.
 */
function probesOf(app: Hono<AppEnv>, document: OpenApiLike, slug: string): Probe[] {
  const probes: Probe[] = [];
  for (const [pattern, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const query = new URLSearchParams();
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== "query" || typeof parameter.example !== "string") continue;
        query.set(parameter.name, parameter.name === "slug" ? slug : parameter.example);
      }
      const example = operation.requestBody?.content?.["application/json"]?.example;
      const path = pattern.replace("{slug}", slug) + (query.size > 0 ? `?${query}` : "");
      probes.push({
        name: `${method.toUpperCase()} ${pattern}`,
        path,
        init: {
          method: method.toUpperCase(),
          headers: { "Content-Type": "application/json", "User-Agent": DESKTOP_UA },
          body: example === undefined ? undefined : JSON.stringify(example),
        },
        needsStore: "503" in (operation.responses ?? {}),
      });
    }
  }
  for (const route of app.routes) {
    const api = route.path.startsWith("/api/") || route.path in document.paths;
    if (route.method === "ALL" || api || route.path === "/:slug") continue;
    const needsStore = PAGES_NEEDING_STORE[route.path];
    assert(needsStore !== undefined, `say whether ${route.path} needs the store`);
    const name = `${route.method} ${route.path}`;
    if (probes.some((probe) => probe.name === name)) continue;
    const init = route.method === "GET"
      ? {}
      : { method: route.method, body: new URLSearchParams({ slug }) };
    probes.push({ name, path: route.path.replace(":slug", slug), init, needsStore });
  }
  return probes;
}

async function clicksOf(t: TestApp, slug: string): Promise<number> {
  const res = await t.request(`/api/unshorten?slug=${slug}`);
  assertEquals(res.status, 200);
  return (await res.json()).clicks;
}

Deno.test("a store that goes down answers 503 everywhere it is needed, and everything recovers when it is back", async () => {
  const faults: Faults = { commits: 0, down: false };
  const logged: LogLine[] = [];
  await using t = await testApp({
    faults,
    log: (line) => logged.push(line),
    removals: { pollMs: 20 },
  });
  t.deps.removals.start();
  try {
    for (const slug of ["steady", "probe"]) {
      const made = await t.json("/api/create", { url: `example.com/${slug}`, slug });
      assertEquals(made.status, 201);
    }
    const visit = () => t.request("/steady", { headers: { "User-Agent": DESKTOP_UA } });
    for (let i = 0; i < 2; i++) assertEquals((await visit()).status, 302);
    await t.deps.clicks.flush();
    for (let i = 0; i < 3; i++) assertEquals((await visit()).status, 302); // cached, unwritten
    const document = (await (await t.request("/api/openapi.json")).json()) as OpenApiLike;
    const probes = probesOf(t.app, document, "probe");

    faults.down = true;
    // The epoch poll fails and empties the link cache.
    assert(await until(() => t.linkCache.size === 0), "the link cache was kept");
    await t.deps.clicks.flush();
    assertEquals(t.deps.clicks.pending, 3, "the unwritten visits are kept");
    // Said once, with the clicks waiting, not once a flush while the fault lasts.
    for (let i = 0; i < 3; i++) await t.deps.clicks.flush();
    const said = logged.filter((line) => line.msg === "click flush failed, will retry");
    assertEquals(said.map((line) => [line.level, line.waiting]), [["error", 3]]);
    const down: string[] = [];
    const seen: string[] = [];
    for (const probe of probes) {
      const res = await t.request(probe.path, probe.init);
      const text = await res.text();
      seen.push(`${probe.name} ${res.status}`);
      if (!probe.needsStore) {
        // A page answers, or sends to its path (a trailing slash): nothing it does reads the store.
        if (res.status !== 200 && res.status !== 301) {
          down.push(`${probe.name}: ${res.status} while down`);
        }
        continue;
      }
      if (res.status !== 503) down.push(`${probe.name}: ${res.status} ${text.slice(0, 80)}`);
      else if (probe.path.startsWith("/api/") && probe.name !== "GET /api/health") {
        if (JSON.parse(text).error !== STORE_DOWN) down.push(`${probe.name}: ${text}`);
      } else if (!probe.path.startsWith("/api/")) {
        if (!text.includes(STORE_DOWN)) down.push(`${probe.name}: no error page`);
      }
    }
    const redirect = await visit();
    assertEquals(redirect.status, 503);
    assertStringIncludes(await redirect.text(), STORE_DOWN);
    const metrics = await (await t.request("/metrics")).text();
    assertStringIncludes(metrics, "lapse_store_up 0");
    console.log(`store down: ${seen.join(", ")}`);
    assertEquals(down, []);

    faults.down = false;
    await t.deps.clicks.flush();
    assertEquals(t.deps.clicks.pending, 0);
    assertEquals(logged.filter((line) => line.msg === "click flush works again").length, 1);
    assertEquals(await clicksOf(t, "steady"), 5);
    const back: string[] = [];
    for (const probe of probes) {
      const res = await t.request(probe.path, probe.init);
      await res.body?.cancel();
      if (res.status >= 500) back.push(`${probe.name}: ${res.status} once back`);
    }
    assertEquals(back, []);
    assertEquals((await t.request("/api/health")).status, 200);
    const made = await t.json("/api/create", { url: "example.com/after", slug: "after" });
    assertEquals(made.status, 201);
    assertEquals((await t.request("/after")).headers.get("location"), "https://example.com/after");
    assertEquals((await visit()).status, 302);
  } finally {
    await t.deps.removals.stop();
  }
});

Deno.test("a failed commit makes nothing half: create, remove and bulk leave consistent figures", async () => {
  const faults: Faults = { commits: 0, down: false };
  await using t = await testApp({ faults });
  const figures = async () => {
    const links = await (await t.request("/api/links")).json();
    const stats = await (await t.request("/api/stats")).json();
    return { listed: links.length, links: stats.links };
  };
  assertEquals((await t.json("/api/create", { url: "example.com/a", slug: "kept" })).status, 201);

  faults.passing = 1; // the rate limit's count goes through; the link's own commit fails
  faults.commits = 1;
  const refused = await t.json("/api/create", { url: "example.com/b", slug: "half" });
  assertEquals(refused.status, 503);
  assertEquals(await refused.json(), { error: STORE_DOWN });
  assertEquals((await (await t.request("/api/check?slug=half")).json()).exists, false);
  assertEquals(await figures(), { listed: 1, links: 1 });
  assertEquals((await t.json("/api/create", { url: "example.com/b", slug: "half" })).status, 201);

  faults.commits = 1;
  const notRemoved = await t.request("/api/remove?slug=half", { method: "DELETE" });
  assertEquals(notRemoved.status, 503);
  assertEquals((await t.request("/half")).status, 302);
  assertEquals(await figures(), { listed: 2, links: 2 });
  assertEquals((await t.request("/api/remove?slug=half", { method: "DELETE" })).status, 200);
  assertEquals((await t.request("/half")).status, 404);
  assertEquals(await figures(), { listed: 1, links: 1 });

  let commits = 0;
  const committing = { now: 0, most: 0 };
  faults.onCommit = () => commits++;
  faults.committing = committing;
  faults.passing = 3; // the count and two rows go through, the third row's commit fails
  faults.commits = 1;
  const rows = ["example.com/r1", "example.com/r2", "example.com/r3", "example.com/r4"];
  const bulk = await t.json("/api/bulk", { urls: rows }, { client: "192.0.2.9" });
  assertEquals(bulk.status, 503);
  // Rows are made side by side: the fourth may still commit after the failure.
  assert(await until(() => commits === 5 && committing.now === 0), `${commits} commits`);
  const after = await figures();
  assertEquals(after.listed, after.links);
  assert(after.listed >= 1 && after.listed <= 4, String(after.listed));
});

Deno.test("an error outside /api/ is a page for a browser and JSON for any other client", async () => {
  const faults: Faults = { commits: 0, down: false };
  await using t = await testApp({ faults });
  faults.down = true;
  for (const accept of ["text/html,*/*;q=0.8", "TEXT/HTML", "application/xhtml+xml"]) {
    const page = await t.request("/stats", { headers: { Accept: accept } });
    assertEquals(page.status, 503, accept);
    assertEquals(page.headers.get("content-type"), "text/html; charset=utf-8", accept);
    assertEquals(page.headers.get("vary"), "Accept, Accept-Encoding");
    assertStringIncludes(await page.text(), STORE_DOWN);
  }
  for (const accept of [undefined, "*/*", "application/json", "text/html;q=0, */*"]) {
    const res = await t.request("/stats", { headers: accept ? { Accept: accept } : {} });
    assertEquals(res.status, 503, accept);
    assertEquals(res.headers.get("content-type"), "application/json", accept);
    assertEquals(res.headers.get("vary"), "Accept, Accept-Encoding");
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(await res.json(), { error: STORE_DOWN });
  }
  const missing = await t.request("/no/such/page");
  assertEquals(missing.status, 404);
  assertEquals(missing.headers.get("content-type"), "text/html; charset=utf-8", "the 404 page");
  await missing.body?.cancel();
});

Deno.test("a removal whose names' reranking fails still answers 200, and a later flush places them", async () => {
  const faults: Faults = { commits: 0, down: false };
  await using t = await testApp({ faults });
  await t.json("/api/create", { url: "example.com/kept", slug: "kept" });
  await t.json("/api/create", { url: "example.com/gone", slug: "gone" });
  await t.request("/gone", {
    headers: { "User-Agent": DESKTOP_UA, Referer: "https://only-gone.example/" },
  });
  await t.deps.clicks.flush();
  // The removal's commit goes through; the one that moves its names in the ranking fails.
  faults.passing = 1;
  faults.commits = 1;
  const removed = await t.request("/api/remove?slug=gone", { method: "DELETE" });
  assertEquals(removed.status, 200);
  assertEquals(faults.commits, 0, "the rerank's commit was refused");
  await t.request("/kept", { headers: { "User-Agent": DESKTOP_UA } });
  await t.deps.clicks.flush();
  const stats = await (await t.request("/api/stats")).json();
  assertEquals(stats.referrers, [{ name: "direct", clicks: 1 }]);
});

Deno.test("a flush whose reranking fails places its names at the next flush", async () => {
  const faults: Faults = { commits: 0, down: false };
  await using t = await testApp({ faults });
  await t.json("/api/create", { url: "example.com/ranked", slug: "ranked" });
  await t.request("/ranked", {
    headers: { "User-Agent": DESKTOP_UA, Referer: "https://ranked.example/" },
  });
  // The flush's one commit goes through; the one that moves its names in the ranking fails.
  faults.passing = 1;
  faults.commits = 1;
  await t.deps.clicks.flush();
  assertEquals(faults.commits, 0, "the rerank's commit was refused");
  assertEquals((await (await t.request("/api/stats")).json()).referrers, []);
  await t.deps.clicks.flush();
  const stats = await (await t.request("/api/stats")).json();
  assertEquals(stats.referrers, [{ name: "ranked.example", clicks: 1 }]);
});

Deno.test("a store that refuses writes (a full disk) still answers reads: their rate-limit windows are counted in memory", async () => {
  const faults: Faults = { commits: 0, down: false };
  await using t = await testApp({ faults });
  assertEquals(
    (await t.json("/api/create", { url: "example.com/read", slug: "read" })).status,
    201,
  );
  const listed = async () => (await (await t.request("/api/links")).json()).length;
  assertEquals(await listed(), 1);

  faults.commits = 1_000_000; // every write fails, every read answers
  const stats = await t.request("/api/stats?slug=read");
  assertEquals(stats.status, 200, await stats.clone().text());
  assertEquals((await stats.json()).slug, "read");
  assertEquals(stats.headers.get("ratelimit-limit"), "60");
  assertEquals(stats.headers.get("ratelimit-remaining"), "59");
  assertEquals((await t.request("/api/links")).status, 200);
  assertEquals((await t.request("/api/stats")).status, 200);
  // Writes still fail, and nothing refused lands.
  const refused = await t.json("/api/create", { url: "example.com/lost", slug: "lost" });
  assertEquals([refused.status, await refused.json()], [503, { error: STORE_DOWN }]);
  // The limit still holds, counted in memory: 60 a minute for stats.
  const statuses = [];
  for (let i = 0; i < 60; i++) {
    const answer = await t.request("/api/stats?slug=read");
    await answer.body?.cancel();
    statuses.push(answer.status);
  }
  // Two stats requests came before these 60: the last two are over.
  assertEquals(statuses.slice(56), [200, 200, 429, 429]);

  faults.commits = 0;
  assertEquals(await listed(), 1, "the refused create landed");
  assertEquals((await t.request("/api/check?slug=lost")).status, 200);
  assertEquals((await (await t.request("/api/check?slug=lost")).json()).exists, false);
  // The store took the count back: the window is still full.
  assertEquals((await t.request("/api/stats?slug=read")).status, 429);
});
