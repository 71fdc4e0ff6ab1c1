import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { cacheSeenKey } from "../../lib/kv/keys.ts";
import type { LogLine } from "../../lib/log/mod.ts";

const WEEK = 7 * 86_400_000;

Deno.test("GET /api/check reports exists and reserved", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "here" });
  const check = async (slug: string) => await (await t.request(`/api/check?slug=${slug}`)).json();
  assertEquals(await check("here"), { slug: "here", exists: true, reserved: false });
  assertEquals(await check("Here"), { slug: "Here", exists: false, reserved: false });
  assertEquals(await check("nothing"), { slug: "nothing", exists: false, reserved: false });
  assertEquals(await check("Docs"), { slug: "Docs", exists: false, reserved: true });
  t.advance(WEEK);
  assertEquals(await check("here"), { slug: "here", exists: false, reserved: false });
});

Deno.test("GET /api/check is not rate limited", async () => {
  await using t = await testApp();
  for (let i = 0; i < 100; i++) {
    const res = await t.request("/api/check?slug=abc");
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("ratelimit-limit"), null);
  }
});

Deno.test("GET /api/check answers 400 without a slug or with an impossible one", async () => {
  await using t = await testApp();
  assertEquals(await (await t.request("/api/check")).json(), { error: "slug is required" });
  assertEquals((await t.request("/api/check?slug=")).status, 400);
  const bad = await t.request(`/api/check?slug=${"x".repeat(3000)}`);
  assertEquals(bad.status, 400);
  assertEquals(await bad.json(), { error: "invalid slug" });
  assertEquals((await t.request("/api/check?slug=a%00b")).status, 400);
});

Deno.test("GET /api/unshorten expands a slug or a short URL of this service", async () => {
  await using t = await testApp();
  const made = await (await t.json("/api/create", { url: "example.com/long", slug: "short" }))
    .json();
  const expected = {
    slug: "short",
    shortUrl: "http://sho.rt/short",
    url: "https://example.com/long",
    protected: false,
    clicks: 0,
    createdAt: new Date(t.now()).toISOString(),
    expiresAt: made.expiresAt,
    expiresInDays: 7,
    maxVisits: null,
    visitsLeft: null,
  };
  for (const ref of ["short", "http://sho.rt/short", "https://www.sho.rt/short", "sho.rt/short"]) {
    const res = await t.request(`/api/unshorten?slug=${encodeURIComponent(ref)}`);
    assertEquals(res.status, 200, ref);
    assertEquals(await res.json(), expected);
  }
  t.advance(3 * 86_400_000 + 1);
  assertEquals((await (await t.request("/api/unshorten?slug=short")).json()).expiresInDays, 4);
});

Deno.test("GET /api/unshorten refuses another host as an invalid slug", async () => {
  await using t = await testApp();
  const res = await t.request(
    `/api/unshorten?slug=${encodeURIComponent("https://evil.example/short")}`,
  );
  assertEquals(res.status, 400);
  assertEquals(await res.json(), { error: "invalid slug" });
  assertEquals((await t.request("/api/unshorten")).status, 400);
});

Deno.test("GET /api/unshorten tells expired from never existed", async () => {
  await using t = await testApp();
  const made = await (await t.json("/api/create", { url: "example.com", slug: "brief" })).json();
  t.advance(WEEK);
  const expired = await t.request("/api/unshorten?slug=brief");
  assertEquals(expired.status, 410);
  assertEquals(await expired.json(), {
    error: 'link "brief" expired',
    slug: "brief",
    expired: true,
    expiresAt: made.expiresAt,
  });
  const never = await t.request("/api/unshorten?slug=never");
  assertEquals(never.status, 404);
  assertEquals(await never.json(), { error: 'no link with slug "never"' });
});

Deno.test("DELETE /api/remove removes at once; unknown or expired is 404", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "doomed" });
  await t.json("/api/create", { url: "example.com", slug: "stale" });
  const res = await t.request("/api/remove?slug=doomed", { method: "DELETE" });
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { ok: true, slug: "doomed" });
  assertEquals((await t.request("/doomed")).status, 404);
  const again = await t.request("/api/remove?slug=doomed", { method: "DELETE" });
  assertEquals(again.status, 404);
  assertEquals(await again.json(), { error: 'no link with slug "doomed"' });
  t.advance(WEEK);
  assertEquals((await t.request("/api/remove?slug=stale", { method: "DELETE" })).status, 404);
  assertEquals((await t.request("/api/remove", { method: "DELETE" })).status, 400);
  assertEquals((await t.request("/api/remove?slug=a/b", { method: "DELETE" })).status, 400);
});

Deno.test("a removal that another instance has not confirmed in a second answers, and says so in the log", async () => {
  const logged: LogLine[] = [];
  await using t = await testApp({ log: (line) => logged.push(line) });
  await t.json("/api/create", { url: "example.com", slug: "laggard" });
  // Another instance, alive a moment ago, that has not caught up with the removal's epoch.
  await t.store.kv.set(cacheSeenKey("stuck"), { epoch: 0n, at: Date.now() });
  const started = performance.now();
  const res = await t.request("/api/remove?slug=laggard", { method: "DELETE" });
  const took = performance.now() - started;
  assertEquals(res.status, 200);
  assert(took >= 1_000 && took < 2_000, `answered after ${took.toFixed(0)} ms`);
  const warning = logged.find((line) => line.level === "warn");
  assertEquals(warning?.msg, "removal answered before every instance had forgotten the link");
  assertEquals(warning?.slug, "laggard");
  assertEquals((await t.request("/laggard")).status, 404);
});
