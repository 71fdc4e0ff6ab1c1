import { assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { importLegacyLinks } from "../../lib/links/mod.ts";
import { undatedLinksPrefix } from "../../lib/kv/keys.ts";

const WEEK = 7 * 86_400_000;

Deno.test("GET and DELETE /api/sweep list what the sweep would remove; POST runs it", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "aaa" });
  await t.json("/api/create", { url: "example.com/b", slug: "bbb" });
  t.advance(86_400_000);
  await t.json("/api/create", { url: "example.com/c", slug: "ccc" });
  t.advance(WEEK - 86_400_000);
  const expiresAt = new Date(t.now()).toISOString();
  const listing = await (await t.request("/api/sweep")).json();
  assertEquals(listing, {
    expired: [{ slug: "aaa", expiresAt }, { slug: "bbb", expiresAt }],
    count: 2,
    stamped: 0,
  });
  const deleteListing = await (await t.request("/api/sweep", { method: "DELETE" })).json();
  assertEquals(deleteListing, { expired: listing.expired, count: 2 });
  // Listing removes nothing.
  assertEquals((await t.request("/aaa")).status, 404);
  assertEquals((await (await t.request("/api/sweep")).json()).count, 2);
  const run = await t.json("/api/sweep", { confirm: "sweep" });
  assertEquals(run.status, 200);
  assertEquals(await run.json(), { swept: 2, slugs: ["aaa", "bbb"] });
  assertEquals(
    (await t.json("/api/sweep", { confirm: "sweep" }, { client: "198.51.100.1" })).status,
    200,
  );
  assertEquals((await t.request("/ccc")).status, 302);
});

Deno.test("POST /api/sweep without the confirmation removes nothing", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "aaa" });
  t.advance(WEEK);
  const bodies: unknown[] = [{}, { confirm: "yes" }, { confirm: "SWEEP" }, { confirm: true }, []];
  for (const [i, body] of bodies.entries()) {
    const res = await t.json("/api/sweep", body, { client: `198.51.100.${i}` });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(typeof (await res.json()).error, "string");
  }
  assertEquals((await (await t.request("/api/sweep", {}, "203.0.113.1")).json()).count, 1);
});

Deno.test("POST /api/sweep takes its confirmation as JSON only: a form, which any page can post, removes nothing", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "aaa" });
  t.advance(WEEK);
  const forms: [string, BodyInit][] = [
    ["application/x-www-form-urlencoded", "confirm=sweep"],
    [
      "multipart/form-data; boundary=x",
      '--x\r\nContent-Disposition: form-data; name="confirm"\r\n\r\nsweep\r\n--x--\r\n',
    ],
    ["text/plain", "confirm=sweep"],
  ];
  for (const [i, [type, body]] of forms.entries()) {
    const res = await t.request(
      "/api/sweep",
      { method: "POST", headers: { "Content-Type": type }, body },
      `198.51.100.${i}`,
    );
    assertEquals(res.status, 400, type);
    // A form's refusal names the type to send.
    const error = type === "text/plain"
      ? "request body is not valid JSON"
      : "request body must be JSON, sent with Content-Type: application/json";
    assertEquals(await res.json(), { error });
  }
  assertEquals((await (await t.request("/api/sweep", {}, "203.0.113.1")).json()).count, 1);
});

Deno.test("DELETE /api/sweep?slug= removes one live link", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "aaa" });
  const res = await t.request("/api/sweep?slug=aaa", { method: "DELETE" });
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { ok: true, slug: "aaa" });
  assertEquals((await t.request("/aaa")).status, 404);
  assertEquals((await t.request("/api/sweep?slug=aaa", { method: "DELETE" })).status, 404);
});

Deno.test("GET /api/sweep gives legacy links their deadline", async () => {
  await using t = await testApp();
  await importLegacyLinks(t.store, { legacy1: "example.com/1", legacy2: "example.com/2" }, {
    serviceHost: "sho.rt",
  });
  const head = await t.request("/api/sweep", { method: "HEAD" });
  assertEquals(head.status, 200);
  await head.body?.cancel();
  const listing = await (await t.request("/api/sweep")).json();
  assertEquals(listing.stamped, 2, "HEAD dated nothing");
  assertEquals((await (await t.request("/api/sweep")).json()).stamped, 0);
  const links = await (await t.request("/api/links")).json();
  assertEquals(links.map((l: { expiresInDays: number }) => l.expiresInDays), [7, 7]);
});

Deno.test("the sweep methods share one allowance of 4 a minute", async () => {
  await using t = await testApp();
  assertEquals((await t.request("/api/sweep")).status, 200);
  assertEquals((await t.request("/api/sweep", { method: "DELETE" })).status, 200);
  assertEquals((await t.json("/api/sweep", { confirm: "sweep" })).status, 200);
  assertEquals((await t.request("/api/sweep")).status, 200);
  const refused = await t.json("/api/sweep", { confirm: "sweep" });
  assertEquals(refused.status, 429);
  assertEquals(refused.headers.get("ratelimit-limit"), "4");
});

Deno.test("POST /api/sweep gives legacy links their deadline, as the hourly job does", async () => {
  await using t = await testApp();
  await importLegacyLinks(t.store, { legacy1: "example.com/1" }, { serviceHost: "sho.rt" });
  const run = await t.json("/api/sweep", { confirm: "sweep" });
  assertEquals(await run.json(), { swept: 0, slugs: [] });
  const undated = [];
  for await (const entry of t.store.kv.list({ prefix: undatedLinksPrefix() })) undated.push(entry);
  assertEquals(undated, []);
  assertEquals((await (await t.request("/api/sweep")).json()).stamped, 0);
});
