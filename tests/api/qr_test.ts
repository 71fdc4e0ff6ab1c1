import { assert, assertEquals, assertNotIncludes } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { decodeQrSvg } from "../_helpers/qr.ts";

const DAY = 86_400_000;

Deno.test("GET /api/qr answers an SVG QR code that reads back as the short URL", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/far/away", slug: "scan-me" });
  const res = await t.request("/api/qr?slug=scan-me");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "image/svg+xml");
  assertEquals(res.headers.get("cache-control"), "public, max-age=86400");
  assertEquals(res.headers.get("x-content-type-options"), "nosniff");
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  const svg = await res.text();
  assertEquals(decodeQrSvg(svg), "http://sho.rt/scan-me");
});

Deno.test("a QR code is cached no longer than its link lives", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "brief" });
  t.advance(7 * DAY - 90_500);
  const res = await t.request("/api/qr?slug=brief");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "public, max-age=90");
  await res.body?.cancel();
});

Deno.test("a protected link's QR code holds the short URL, never the destination", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/secret-place", slug: "locked", pass: "pw" });
  const res = await t.request("/api/qr?slug=locked");
  assertEquals(res.status, 200);
  const svg = await res.text();
  assertNotIncludes(svg, "secret-place");
  assertEquals(decodeQrSvg(svg), "http://sho.rt/locked");
});

Deno.test("GET /api/qr answers 404 JSON for an unknown or expired link, 400 without a slug", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "fleeting" });
  const unknown = await t.request("/api/qr?slug=nothing");
  assertEquals(unknown.status, 404);
  assertEquals(unknown.headers.get("content-type"), "application/json");
  assertEquals(await unknown.json(), { error: 'no link with slug "nothing"' });
  t.advance(7 * DAY);
  const expired = await t.request("/api/qr?slug=fleeting");
  assertEquals(expired.status, 404);
  assertEquals(await expired.json(), { error: 'no link with slug "fleeting"' });
  assertEquals(await (await t.request("/api/qr")).json(), { error: "slug is required" });
  const bad = await t.request("/api/qr?slug=a%2Fb");
  assertEquals(bad.status, 400);
  assertEquals(await bad.json(), { error: "invalid slug" });
  const head = await t.request("/api/qr?slug=nothing", { method: "HEAD" });
  assertEquals(head.status, 404);
  assert(head.body === null || (await head.text()) === "");
});
