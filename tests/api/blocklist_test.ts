import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";

const BLOCKED = "destination host is blocked by this service";

Deno.test("create and bulk refuse a destination on a blocked host or its subdomains; a bulk row fails alone", async () => {
  await using t = await testApp();
  t.deps.blocklist.replace(["evil.example"]);
  for (
    const url of ["evil.example/login", "https://www.evil.example/", "http://EVIL.example.:80"]
  ) {
    const refused = await t.json("/api/create", { url });
    assertEquals(refused.status, 400, url);
    assertEquals(await refused.json(), { error: BLOCKED }, url);
  }
  assertEquals((await t.json("/api/create", { url: "notevil.example" })).status, 201);
  const bulk = await t.json("/api/bulk", { urls: ["good.example/a", "login.evil.example/b"] });
  assertEquals(bulk.status, 200);
  const rows = await bulk.json();
  assertEquals(rows[0].ok, true);
  assertEquals(rows[1], { ok: false, url: "login.evil.example/b", error: BLOCKED });
});

Deno.test("a live link to a host blocked after it was made answers 410, cached or not; unshorten says blocked", async () => {
  await using t = await testApp();
  const made = await t.json("/api/create", { url: "https://login.evil.example/x", slug: "phish" });
  assertEquals(made.status, 201);
  // Followed once: the link is now in the redirect's cache, on its fast path.
  assertEquals((await t.request("/phish")).status, 302);
  assertEquals((await t.request("/phish")).status, 302);
  t.deps.blocklist.replace(["evil.example"]);
  for (const init of [{}, { headers: { Accept: "text/html" } }, { method: "HEAD" }]) {
    const answer = await t.request("/phish", init);
    assertEquals(answer.status, 410, JSON.stringify(init));
    assertEquals(answer.headers.get("location"), null);
    assertEquals(answer.headers.get("content-type"), "text/html; charset=utf-8");
    const page = await answer.text();
    if (init.method === "HEAD") continue;
    assertStringIncludes(page, "The operator of this service disabled");
    assert(!page.includes("login.evil.example"), "the page names the blocked destination");
  }
  t.deps.linkCache.clear(); // and read from the store, on the route
  assertEquals((await t.request("/phish")).status, 410);
  const unshorten = await t.request("/api/unshorten?slug=phish");
  assertEquals(unshorten.status, 410);
  const body = await unshorten.json();
  assertEquals([body.slug, body.blocked, typeof body.error], ["phish", true, "string"]);
  assertStringIncludes(body.error, "disabled by the operator");
  // Unblocked, it redirects again.
  t.deps.blocklist.replace([]);
  assertEquals((await t.request("/phish")).status, 302);
  assertEquals((await t.request("/api/unshorten?slug=phish")).status, 200);
});

Deno.test("the preview refuses a blocked host with reason host", async () => {
  await using t = await testApp();
  t.deps.blocklist.replace(["evil.example"]);
  const refused = await t.request("/api/preview?url=https://www.evil.example/");
  assertEquals(refused.status, 400);
  assertEquals(await refused.json(), {
    error: 'host "www.evil.example" is blocked by this service',
    reason: "host",
  });
});

Deno.test("a limited link to a blocked host answers 410 to its Open as to its GET, and keeps its visits", async () => {
  await using t = await testApp();
  const made = await t.json("/api/create", { url: "https://evil.example/doc", maxVisits: 2 });
  const { slug } = await made.json();
  t.deps.blocklist.replace(["evil.example"]);
  assertEquals((await t.request(`/${slug}`)).status, 410);
  const opened = await t.request(`/${slug}`, { method: "POST" });
  assertEquals(opened.status, 410);
  assertEquals(opened.headers.get("location"), null);
  t.deps.blocklist.replace([]);
  const open = await t.request(`/${slug}`, { method: "POST" });
  assertEquals([open.status, open.headers.get("location")], [303, "https://evil.example/doc"]);
  const left = await (await t.request(`/api/unshorten?slug=${slug}`)).json();
  assertEquals(left.visitsLeft, 1, "the refused Open took no visit");
});
