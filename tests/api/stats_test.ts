import { assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { BOT_UA, DESKTOP_UA, MOBILE_UA } from "../_helpers/visits.ts";

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
