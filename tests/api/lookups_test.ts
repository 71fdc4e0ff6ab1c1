import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { cacheSeenKey } from "../../lib/kv/keys.ts";
import { importLegacyLinks } from "../../lib/links/mod.ts";
import type { LogLine } from "../../lib/log/mod.ts";

const WEEK = 7 * 86_400_000;

Deno.test("GET /api/check reports exists, reserved and valid", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "here" });
  const check = async (slug: string) => await (await t.request(`/api/check?slug=${slug}`)).json();
  const answer = (slug: string, exists: boolean, reserved: boolean, valid: boolean) => ({
    slug,
    exists,
    reserved,
    valid,
  });
  assertEquals(await check("here"), answer("here", true, false, true));
  assertEquals(await check("Here"), answer("Here", false, false, true));
  assertEquals(await check("nothing"), answer("nothing", false, false, true));
  assertEquals(await check("Docs"), answer("Docs", false, true, false));
  t.advance(WEEK);
  assertEquals(await check("here"), answer("here", false, false, true));
});

Deno.test("GET /api/check tells a name create would refuse, and agrees with create", async () => {
  await using t = await testApp();
  await importLegacyLinks(t.store, { ab: "example.com/legacy" }, {
    serviceHost: t.config.serviceHost,
  });
  const names = ["a", "ab", "abc", "a b", "-abc", "_x1", "x".repeat(48), "x".repeat(49), "a%00b"];
  for (const name of [...names, "", "%20%20", "x".repeat(3000), "stats", "STATS"]) {
    const res = await t.request(`/api/check?slug=${name}`);
    assertEquals(res.status, 200, name);
    const body = await res.json();
    assertEquals(Object.keys(body), ["slug", "exists", "reserved", "valid"]);
    assertEquals(body.slug, decodeURIComponent(name).trim(), name);
    // A blank slug is no slug to create, which then draws one.
    if (body.slug === "") continue;
    // valid exactly when create takes it (a legacy link's short name is not one it would take).
    const made = await t.json("/api/create", { url: "example.com/try", slug: body.slug }, {
      client: `198.51.100.${names.indexOf(name) + 2}`,
    });
    await made.body?.cancel();
    assertEquals(made.status === 201, body.valid && !body.exists, `${name}: ${made.status}`);
  }
  assertEquals(await (await t.request("/api/check?slug=ab")).json(), {
    slug: "ab",
    exists: true,
    reserved: false,
    valid: false,
  });
  assertEquals(await (await t.request("/api/check?slug=%20a%20b%20")).json(), {
    slug: "a b",
    exists: false,
    reserved: false,
    valid: false,
  });
});

Deno.test("GET /api/check is not rate limited", async () => {
  await using t = await testApp();
  for (let i = 0; i < 100; i++) {
    const res = await t.request("/api/check?slug=abc");
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("ratelimit-limit"), null);
  }
});

Deno.test("GET /api/check answers 400 only without a slug parameter", async () => {
  await using t = await testApp();
  const res = await t.request("/api/check");
  assertEquals(res.status, 400);
  assertEquals(await res.json(), { error: "slug is required" });
  assertEquals((await t.request("/api/check?name=abc")).status, 400);
  assertEquals((await t.request("/api/check?slug=")).status, 200);
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
  let now = Date.now;
  await using t = await testApp({
    log: (line) => logged.push(line),
    removals: { now: () => now() },
  });
  now = t.now;
  await t.json("/api/create", { url: "example.com", slug: "laggard" });
  // Another instance, alive a moment ago, that has not caught up with the removal's epoch.
  await t.store.kv.set(cacheSeenKey("stuck"), { epoch: 0n, at: t.now() });
  let answered: Response | undefined;
  const removing = t.request("/api/remove?slug=laggard", { method: "DELETE" }).then((res) => {
    answered = res;
  });
  // The removal's clock moves 50 ms a turn of the loop: it answers once a second has passed.
  let moved = 0;
  while (answered === undefined) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    t.advance(50);
    moved += 50;
  }
  await removing;
  const res = answered;
  assertEquals(res.status, 200);
  assert(moved >= 1_000, `answered after ${moved} ms of its clock`);
  const warning = logged.find((line) => line.level === "warn");
  assertEquals(warning?.msg, "removal answered before every instance had forgotten the link");
  assertEquals(warning?.slug, "laggard");
  assertEquals((await t.request("/laggard")).status, 404);
});
