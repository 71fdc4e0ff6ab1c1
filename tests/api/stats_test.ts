import { assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { BOT_UA, DESKTOP_UA, MOBILE_UA } from "../../testing/visits.ts";

Deno.test("clicks show in the list, unshorten, export and stats after a flush", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "alpha", title: "Alpha" });
  const visitAt = (headers: Record<string, string>) =>
    t.request("/alpha", { headers }, "81.2.69.160");
  await visitAt({ "User-Agent": DESKTOP_UA, Referer: "https://www.social.example/post/1" });
  await visitAt({ "User-Agent": MOBILE_UA });
  await visitAt({ "User-Agent": BOT_UA });
  await t.request("/alpha", { method: "HEAD", headers: { "User-Agent": DESKTOP_UA } });
  await t.deps.clicks.flush();
  const [entry] = await (await t.request("/api/links")).json();
  assertEquals(entry.clicks, 2);
  assertEquals(entry.lastUsedAt, new Date(t.now()).toISOString());
  assertEquals((await (await t.request("/api/unshorten?slug=alpha")).json()).clicks, 2);
  assertEquals((await (await t.request("/api/export?format=json")).json())[0].clicks, 2);
  const res = await t.request("/api/stats");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("ratelimit-limit"), "60");
  const stats = await res.json();
  assertEquals(Object.keys(stats), [
    "links",
    "clicks",
    "days",
    "top",
    "referrers",
    "devices",
    "countries",
  ]);
  assertEquals(stats.links, 1);
  assertEquals(stats.clicks, 2);
  assertEquals(stats.days.length, 7);
  assertEquals(stats.days[6], { date: "2026-11-02", links: 1, clicks: 2 });
  assertEquals(stats.top, [{
    slug: "alpha",
    shortUrl: "http://sho.rt/alpha",
    title: "Alpha",
    clicks: 2,
  }]);
  assertEquals(stats.referrers, [{ name: "direct", clicks: 1 }, {
    name: "social.example",
    clicks: 1,
  }]);
  assertEquals(stats.devices, [
    { name: "bot", clicks: 1 },
    { name: "desktop", clicks: 1 },
    { name: "mobile", clicks: 1 },
  ]);
  assertEquals(stats.countries, [{ name: "GB", clicks: 2 }]);
});

Deno.test("a country header counts only behind a trusted proxy", async () => {
  for (const [trust, expected] of [["1", "JP"], ["0", "GB"]] as const) {
    await using t = await testApp({ env: { TRUST_PROXY: trust } });
    await t.json("/api/create", { url: "example.com", slug: "geo" });
    await t.request("/geo", {
      headers: { "User-Agent": DESKTOP_UA, "CF-IPCountry": "jp", "X-Forwarded-For": "81.2.69.160" },
    }, "81.2.69.160");
    await t.deps.clicks.flush();
    const { countries } = await (await t.request("/api/stats")).json();
    assertEquals(countries, [{ name: expected, clicks: 1 }], `TRUST_PROXY=${trust}`);
  }
});

Deno.test("a country header that names no country leaves the next one to say", async () => {
  await using t = await testApp({ env: { TRUST_PROXY: "1" } });
  await t.json("/api/create", { url: "example.com", slug: "geo" });
  await t.request("/geo", {
    headers: { "User-Agent": DESKTOP_UA, "CF-IPCountry": "XX", "X-Vercel-IP-Country": "de" },
  });
  await t.deps.clicks.flush();
  const { countries } = await (await t.request("/api/stats")).json();
  assertEquals(countries, [{ name: "DE", clicks: 1 }]);
});

Deno.test("a removed link leaves the stats", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "brief" });
  await t.request("/brief", {
    headers: { "User-Agent": DESKTOP_UA, Referer: "https://x.example/" },
  });
  await t.deps.clicks.flush();
  await t.request("/api/remove?slug=brief", { method: "DELETE" });
  const stats = await (await t.request("/api/stats")).json();
  assertEquals([
    stats.links,
    stats.clicks,
    stats.top,
    stats.referrers,
    stats.devices,
    stats.countries,
  ], [
    0,
    0,
    [],
    [],
    [],
    [],
  ]);
});

Deno.test("GET /api/stats is limited to 60 a minute per client", async () => {
  await using t = await testApp();
  for (let i = 0; i < 60; i++) assertEquals((await t.request("/api/stats")).status, 200);
  assertEquals((await t.request("/api/stats")).status, 429);
});

Deno.test("a click that cannot be recorded still redirects", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/still", slug: "still" });
  t.deps.clicks.recordVisit = () => {
    throw new Error("tracking broke");
  };
  const errors = console.error;
  console.error = () => {};
  try {
    const res = await t.request("/still");
    assertEquals(res.status, 302);
    assertEquals(res.headers.get("location"), "https://example.com/still");
  } finally {
    console.error = errors;
  }
});

Deno.test("GET /api/stats?slug= answers one link's figures across a flush", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "alpha", pass: "secret" });
  await t.json("/api/create", { url: "example.com/b", slug: "beta" });
  const fresh = await t.request("/api/stats?slug=alpha");
  assertEquals(fresh.status, 200);
  assertEquals(fresh.headers.get("ratelimit-limit"), "60");
  assertEquals(fresh.headers.get("cache-control"), "no-store");
  const before = await fresh.json();
  assertEquals(before.clicks, 0);
  assertEquals(before.lastUsedAt, null);
  await t.request("/beta", { headers: { "User-Agent": DESKTOP_UA } });
  const unlocked = await t.json("/api/unlock", { slug: "alpha", pass: "secret" });
  const cookie = unlocked.headers.get("set-cookie")!.split(";")[0]!;
  const visitAt = (headers: Record<string, string>) =>
    t.request("/alpha", { headers: { Cookie: cookie, ...headers } }, "81.2.69.160");
  await visitAt({ "User-Agent": DESKTOP_UA, Referer: "https://www.social.example/post/1" });
  await visitAt({ "User-Agent": MOBILE_UA });
  await visitAt({ "User-Agent": BOT_UA });
  await t.deps.clicks.flush();
  const res = await t.request("/api/stats?slug=alpha", { headers: { Cookie: cookie } });
  assertEquals(res.status, 200);
  const figures = await res.json();
  assertEquals(Object.keys(figures), [
    "slug",
    "shortUrl",
    "clicks",
    "lastUsedAt",
    "createdAt",
    "expiresAt",
    "expiresInDays",
    "days",
    "referrers",
    "devices",
    "countries",
  ]);
  assertEquals(figures.slug, "alpha");
  assertEquals(figures.shortUrl, "http://sho.rt/alpha");
  assertEquals(figures.clicks, 2);
  assertEquals(figures.lastUsedAt, new Date(t.now()).toISOString());
  assertEquals(figures.createdAt, new Date(t.now()).toISOString());
  assertEquals(figures.expiresInDays, 7);
  assertEquals(figures.days.length, 7);
  assertEquals(figures.days[6], { date: "2026-11-02", clicks: 2 });
  assertEquals(figures.days[0], { date: "2026-10-27", clicks: 0 });
  assertEquals(figures.referrers, [{ name: "direct", clicks: 1 }, {
    name: "social.example",
    clicks: 1,
  }]);
  assertEquals(figures.devices, [
    { name: "bot", clicks: 1 },
    { name: "desktop", clicks: 1 },
    { name: "mobile", clicks: 1 },
  ]);
  assertEquals(figures.countries, [{ name: "GB", clicks: 2 }]);
  // A protected link's figures never hold its destination, cookie or not.
  const text = JSON.stringify(figures);
  assertEquals(text.includes("example.com"), false);
  // The service-wide form still answers the service's figures.
  const all = await (await t.request("/api/stats")).json();
  assertEquals([all.links, all.clicks], [2, 3]);
});

Deno.test("GET /api/stats?slug= answers 404 after a removal, and for a name never made", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "brief" });
  await t.request("/brief", { headers: { "User-Agent": DESKTOP_UA } });
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/stats?slug=brief")).json()).clicks, 1);
  await t.request("/api/remove?slug=brief", { method: "DELETE" });
  for (const slug of ["brief", "never"]) {
    const res = await t.request(`/api/stats?slug=${slug}`);
    assertEquals(res.status, 404, slug);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { error: `no link with slug "${slug}"` });
  }
});

Deno.test("GET /api/stats?slug= answers 410 once the link expired, then 404 after the sweep", async () => {
  await using t = await testApp();
  const made = await (await t.json("/api/create", { url: "example.com", slug: "old" })).json();
  await t.request("/old", { headers: { "User-Agent": DESKTOP_UA } });
  await t.deps.clicks.flush();
  t.advance(7 * 86_400_000);
  const res = await t.request("/api/stats?slug=old");
  assertEquals(res.status, 410);
  assertEquals(await res.json(), {
    error: 'link "old" expired',
    slug: "old",
    expired: true,
    expiresAt: made.expiresAt,
  });
  await t.json("/api/sweep", { confirm: "sweep" });
  assertEquals((await t.request("/api/stats?slug=old")).status, 404);
});

Deno.test("GET /api/stats?slug= refuses a slug no link could have, and shares the stats limit", async () => {
  await using t = await testApp();
  for (const query of ["slug=a%20b", "slug=", "slug=%2Fetc"]) {
    const res = await t.request(`/api/stats?${query}`);
    assertEquals(res.status, 400, query);
    assertEquals(typeof (await res.json()).error, "string");
  }
  for (let i = 3; i < 60; i++) await (await t.request("/api/stats?slug=nothing")).body?.cancel();
  const refused = await t.request("/api/stats");
  assertEquals(refused.status, 429);
  assertEquals(refused.headers.get("ratelimit-remaining"), "0");
});
