import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { importLegacyLinks } from "../../lib/links/mod.ts";

const WEEK = 7 * 86_400_000;

Deno.test("GET /<slug> redirects with 302, unsafe-url referrer policy and no-store", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/x?y=1#z", slug: "goto" });
  const res = await t.request("/goto");
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "https://example.com/x?y=1#z");
  assertEquals(res.headers.get("referrer-policy"), "unsafe-url");
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  assertEquals(await res.text(), "");
});

Deno.test("HEAD /<slug> answers the same status and headers without a body", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/h", slug: "head" });
  const res = await t.request("/head", { method: "HEAD" });
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "https://example.com/h");
  assertEquals(res.headers.get("referrer-policy"), "unsafe-url");
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(await res.text(), "");
});

Deno.test("an expired link answers the 404 page saying where it pointed and when it expired", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/<b>old</b>", slug: "past" });
  t.advance(WEEK);
  const res = await t.request("/past");
  assertEquals(res.status, 404);
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  assertStringIncludes(html, "expired");
  assertStringIncludes(html, "https://example.com/%3Cb%3Eold%3C/b%3E");
  assertStringIncludes(html, "2026-11-09 12:00 UTC</time>");
  assertStringIncludes(html, 'href="/?slug=past"');
  assertNotIncludes(html, "<b>old</b>");
});

Deno.test("the 404 page of an expired protected link says only that it was protected", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://secret.example/", slug: "hush", pass: "pw" });
  t.advance(WEEK);
  const html = await (await t.request("/hush")).text();
  assertStringIncludes(html, "protected");
  assertNotIncludes(html, "secret.example");
});

Deno.test("an unknown slug answers the 404 page saying the name is free", async () => {
  await using t = await testApp();
  const res = await t.request("/free-name");
  assertEquals(res.status, 404);
  const html = await res.text();
  assertStringIncludes(html, "The name is free");
  assertStringIncludes(html, 'href="/?slug=free-name"');
});

Deno.test("a name too short for a custom slug is not offered as free", async () => {
  await using t = await testApp();
  for (const path of ["/a", "/ab"]) {
    const res = await t.request(path);
    assertEquals(res.status, 404, path);
    const html = await res.text();
    assertStringIncludes(html, "There is no page at", path);
    assertNotIncludes(html, "claim it", path);
  }
  assertEquals((await t.json("/api/create", { url: "example.com", slug: "ab" })).status, 400);
  // An old link's short name, expired: where it pointed is told, but the name is not offered.
  await importLegacyLinks(t.store, { xy: "example.com/old" }, { serviceHost: "sho.rt" });
  assertEquals((await t.request("/xy")).status, 302);
  t.advance(WEEK);
  const expired = await (await t.request("/xy")).text();
  assertStringIncludes(expired, "https://example.com/old");
  assertNotIncludes(expired, "claim it");
});

Deno.test("nested paths and odd names are not looked up as slugs", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/", slug: "real" });
  for (const path of ["/real/extra", "/a/b", "/x.y", "/x.y/", "/admin", "/admin/"]) {
    const res = await t.request(path);
    assertEquals(res.status, 404, path);
    const html = await res.text();
    assertStringIncludes(html, "There is no page at", path);
    assertNotIncludes(html, "example.com", path);
  }
  // Encoded dot segments are resolved before routing: this is the start page, not a lookup.
  const dots = await t.request("/%2e%2e");
  assertEquals(dots.status, 200);
  assertStringIncludes(await dots.text(), "Make a short link");
});

Deno.test("the 404 page escapes the path it names", async () => {
  await using t = await testApp();
  const html = await (await t.request("/a/%3Cscript%3Ealert(1)%3C%2Fscript%3E")).text();
  assertNotIncludes(html, "<script>alert(1)</script>");
});

Deno.test("a legacy slug shorter than custom slugs still redirects", async () => {
  await using t = await testApp();
  const { importLegacyLinks } = await import("../../lib/links/mod.ts");
  await importLegacyLinks(t.store, { q: "example.com/q" }, { serviceHost: "sho.rt" });
  const res = await t.request("/q");
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "https://example.com/q");
});
