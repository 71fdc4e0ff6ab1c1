/**
 * The cross-site rule through the whole app: a page of another site can change and count
 * nothing with a form or a simple body; CORS clients, curl and the service's own pages can.
 * @module
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { CROSS_SITE_SIMPLE, CROSS_SITE_UNLOCK } from "../../routes/_lib/cross_site.ts";

const CROSS = { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" };
const FORM = "application/x-www-form-urlencoded";

/** A request a page of another site sends: `type` is its body's `Content-Type`. */
function fromElsewhere(method: string, type: string | null, body?: BodyInit): RequestInit {
  const headers: Record<string, string> = { ...CROSS, Accept: "text/html" };
  if (type !== null) headers["Content-Type"] = type;
  return { method, headers, body };
}

async function assertRefused(res: Response, error = CROSS_SITE_SIMPLE): Promise<void> {
  assertEquals(res.status, 403);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(res.headers.get("set-cookie"), null);
  assertEquals(res.headers.get("ratelimit-limit"), null);
  assertEquals(await res.json(), { error });
}

Deno.test("a form from another site makes no link, sets no cookie and counts nothing", async () => {
  await using t = await testApp();
  const bodies: [string | null, string][] = [
    [FORM, "url=https%3A%2F%2Fevil.example%2Fphish&title=Your+bank+statement"],
    [
      "multipart/form-data; boundary=x",
      '--x\r\nContent-Disposition: form-data; name="url"\r\n\r\nevil.example\r\n--x--\r\n',
    ],
    ["text/plain", '{"url":"https://evil.example/phish"}'],
    [null, '{"url":"https://evil.example/phish"}'],
  ];
  for (const [type, body] of bodies) {
    await assertRefused(await t.request("/api/create", fromElsewhere("POST", type, body)));
    await assertRefused(await t.request("/api/bulk", fromElsewhere("POST", type, body)));
  }
  assertEquals((await (await t.request("/api/links")).json()).length, 0);
  // Nothing was counted: create's and bulk's allowances are whole.
  const created = await t.json("/api/create", { url: "example.com/mine" });
  assertEquals(created.status, 201);
  assertEquals(created.headers.get("ratelimit-remaining"), "29");
  const bulk = await t.json("/api/bulk", { urls: ["example.com/b"] });
  assertEquals(bulk.headers.get("ratelimit-remaining"), "4");
});

Deno.test("a text/plain sweep from another site removes nothing and spends no allowance", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "aaa" });
  t.advance(7 * 86_400_000);
  for (let i = 0; i < 5; i++) {
    const res = await t.request(
      "/api/sweep",
      fromElsewhere("POST", "text/plain", '{"confirm":"sweep"}'),
    );
    await assertRefused(res);
  }
  await assertRefused(await t.request("/api/sweep", fromElsewhere("DELETE", null)));
  const listing = await t.request("/api/sweep");
  assertEquals(listing.status, 200);
  assertEquals(listing.headers.get("ratelimit-remaining"), "3");
  assertEquals((await listing.json()).count, 1);
});

Deno.test("unlock from another site is refused whatever its body, and spends no guess", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/hid", slug: "locked", pass: "right" });
  const json = "application/json";
  for (let i = 0; i < 6; i++) {
    const body = JSON.stringify({ slug: "locked", pass: `wrong${i}` });
    await assertRefused(
      await t.request("/api/unlock", fromElsewhere("POST", json, body)),
      CROSS_SITE_UNLOCK,
    );
  }
  await assertRefused(
    await t.request("/api/unlock", fromElsewhere("POST", FORM, "slug=locked&pass=right")),
    CROSS_SITE_UNLOCK,
  );
  // The client's own wrong guess is its first: answered 403 wrong password, not 429.
  const own = await t.json("/api/unlock", { slug: "locked", pass: "typo" });
  assertEquals(own.status, 403);
  assertEquals(own.headers.get("ratelimit-remaining"), "9");
  assertEquals(await own.json(), { error: "wrong password" });
});

Deno.test("other state-changing requests from another site are refused before routing", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "kept" });
  const requests: [string, RequestInit][] = [
    ["/kept", fromElsewhere("POST", FORM, "")],
    ["/kept", fromElsewhere("POST", null)],
    ["/links/remove", fromElsewhere("POST", FORM, "slug=kept&confirm=yes")],
    ["/api/remove?slug=kept", fromElsewhere("DELETE", null)],
    ["/api/create", fromElsewhere("PUT", "text/plain", "x")],
    ["/anything/else", fromElsewhere("PATCH", "text/plain", "x")],
  ];
  for (const [path, init] of requests) await assertRefused(await t.request(path, init));
  assertEquals((await t.request("/kept")).status, 302);
});

Deno.test("a refused body is never read: one over the limit gets 403, not 413", async () => {
  await using t = await testApp();
  const big = "a".repeat(70_000);
  await assertRefused(await t.request("/api/create", fromElsewhere("POST", "text/plain", big)));
});

Deno.test("Origin decides where Sec-Fetch-Site is absent: another origin's form is refused", async () => {
  await using t = await testApp();
  const form = (origin: string, host: string): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": FORM, Origin: origin, Host: host },
    body: "url=example.com%2Ff",
  });
  await assertRefused(await t.request("/api/create", form("https://evil.example", "sho.rt")));
  await assertRefused(await t.request("/api/create", form("null", "sho.rt")));
  assertEquals((await t.request("/api/create", form("http://sho.rt", "sho.rt"))).status, 201);
  // BASE_URL's origin is the service's own, whatever Host a proxy passes on.
  assertEquals(
    (await t.request("/api/create", form("http://sho.rt", "10.0.0.5:8000"))).status,
    201,
  );
});

Deno.test("CORS JSON from another site still creates and bulks; curl and own pages are untouched", async () => {
  await using t = await testApp();
  const json = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { ...CROSS, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const created = await t.request("/api/create", json({ url: "example.com/cors" }));
  assertEquals(created.status, 201);
  assertEquals(created.headers.get("access-control-allow-origin"), "*");
  const bulk = await t.request("/api/bulk", json({ urls: ["example.com/b"] }));
  assertEquals(bulk.status, 200);
  assertEquals((await bulk.json())[0].ok, true);
  // curl: no Sec-Fetch-Site, no Origin, a form or `-d '{...}'`.
  const curl = await t.request("/api/create", {
    method: "POST",
    headers: { "Content-Type": FORM },
    body: '{"url":"example.com/curl"}',
  });
  assertEquals(curl.status, 201);
  // The service's own form, as a browser posts it.
  const own = await t.request("/api/create", {
    method: "POST",
    headers: {
      "Content-Type": FORM,
      Accept: "text/html",
      "Sec-Fetch-Site": "same-origin",
      Origin: "http://sho.rt",
    },
    body: "url=example.com%2Fown&slug=own",
  });
  assertEquals(own.status, 303);
  assertEquals(own.headers.get("location"), "/?made=own");
  assert(own.headers.get("set-cookie")?.startsWith("lapse_made=own"));
});

Deno.test("docs/api.md quotes both refusals as the service sends them", async () => {
  assertEquals(
    CROSS_SITE_SIMPLE,
    "a page on another site may not send this request without a CORS preflight",
  );
  assertEquals(CROSS_SITE_UNLOCK, "a page on another site may not send passwords to this service");
  const docs = await Deno.readTextFile(new URL("../../docs/api.md", import.meta.url));
  for (const error of [CROSS_SITE_SIMPLE, CROSS_SITE_UNLOCK]) {
    assert(docs.includes(`\`${JSON.stringify({ error }).replace(":", ": ")}\``), error);
  }
});
