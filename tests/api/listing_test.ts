import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";

const WEEK = 7 * 86_400_000;

Deno.test("GET /api/links is a bare array of live links, newest first", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/1", slug: "one", title: "One", note: "first" });
  t.advance(1000);
  await t.json("/api/create", { url: "http://example.org/2", slug: "two" });
  t.advance(1000);
  await t.json("/api/create", { url: "example.net/3", slug: "three", pass: "pw" });
  const res = await t.request("/api/links");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "application/json; charset=utf-8");
  assertEquals(res.headers.get("ratelimit-limit"), "30");
  const links = await res.json();
  assert(Array.isArray(links));
  assertEquals(links.map((l: { slug: string }) => l.slug), ["three", "two", "one"]);
  assertEquals(links[2], {
    slug: "one",
    shortUrl: "http://sho.rt/one",
    url: "https://example.com/1",
    host: "example.com",
    title: "One",
    note: "first",
    clicks: 0,
    protected: false,
    createdAt: new Date(t.now() - 2000).toISOString(),
    lastUsedAt: null,
    expiresAt: new Date(t.now() - 2000 + WEEK).toISOString(),
    expiresInDays: 7,
    maxVisits: null,
    visitsLeft: null,
  });
  assertEquals(links[0].url, null);
  assertEquals(links[0].host, null);
  assertEquals(links[0].protected, true);
  t.advance(WEEK - 1500);
  assertEquals(
    (await (await t.request("/api/links")).json()).map((l: { slug: string }) => l.slug),
    ["three", "two"],
  );
});

Deno.test("GET /api/links of an empty store is []", async () => {
  await using t = await testApp();
  assertEquals(await (await t.request("/api/links")).text(), "[]");
});

Deno.test("GET /api/export gives text lines of short URL, destination and deadline", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/1", slug: "one" });
  await t.json("/api/create", { url: "example.com/2", slug: "two", pass: "pw" });
  const res = await t.request("/api/export");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/plain; charset=utf-8");
  const deadline = new Date(t.now() + WEEK).toISOString();
  assertEquals(
    await res.text(),
    `http://sho.rt/two\t(protected)\t${deadline}\nhttp://sho.rt/one\thttps://example.com/1\t${deadline}\n`,
  );
});

Deno.test("GET /api/export?format=csv gives a header row of the list fields", async () => {
  await using t = await testApp();
  await t.json("/api/create", {
    url: "example.com/1",
    slug: "one",
    title: "=cmd|' /C calc'!A0",
    note: 'a "b", c',
  });
  const res = await t.request("/api/export?format=csv");
  assertEquals(res.headers.get("content-type"), "text/csv; charset=utf-8");
  const [header, row, end] = (await res.text()).split("\r\n");
  assertEquals(
    header,
    "slug,shortUrl,url,host,title,note,clicks,protected,createdAt,lastUsedAt,expiresAt,expiresInDays,maxVisits,visitsLeft",
  );
  assertStringIncludes(
    row!,
    `one,http://sho.rt/one,https://example.com/1,example.com,'=cmd|' /C calc'!A0,"a ""b"", c",0,false,`,
  );
  assertEquals(end, "");
});

Deno.test("GET /api/export?format=json gives the links list", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/1", slug: "one" });
  const json = await (await t.request("/api/export?format=json")).json();
  const links = await (await t.request("/api/links")).json();
  assertEquals(json, links);
});

Deno.test("GET /api/export?format= with no value gives the default text", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/1", slug: "one" });
  const blank = await t.request("/api/export?format=");
  assertEquals(blank.status, 200);
  assertEquals(blank.headers.get("content-type"), "text/plain; charset=utf-8");
  assertEquals(await blank.text(), await (await t.request("/api/export")).text());
});

Deno.test("GET /api/export refuses an unknown format and is limited to 20 a minute", async () => {
  await using t = await testApp();
  const bad = await t.request("/api/export?format=xml");
  assertEquals(bad.status, 400);
  assertEquals(await bad.json(), { error: "format must be one of text, csv, json" });
  for (let i = 1; i < 20; i++) assertEquals((await t.request("/api/export")).status, 200);
  assertEquals((await t.request("/api/export")).status, 429);
});

Deno.test("GET /api/links is limited to 30 a minute per client", async () => {
  await using t = await testApp();
  for (let i = 0; i < 30; i++) assertEquals((await t.request("/api/links")).status, 200);
  assertEquals((await t.request("/api/links")).status, 429);
});

Deno.test("list, export and the store agree on a few hundred links", async () => {
  await using t = await testApp();
  const { createLink } = await import("../../lib/links/mod.ts");
  for (let i = 0; i < 320; i++) {
    await createLink(t.store, { url: `example.com/${i}` }, { serviceHost: "sho.rt" });
  }
  const links = await (await t.request("/api/links")).json();
  const lines = (await (await t.request("/api/export")).text()).trimEnd().split("\n");
  const csv = (await (await t.request("/api/export?format=csv")).text()).trimEnd().split("\r\n");
  assertEquals(links.length, 320);
  assertEquals(lines.length, 320);
  assertEquals(csv.length, 321);
  assertEquals(new Set(links.map((l: { slug: string }) => l.slug)).size, 320);
});
