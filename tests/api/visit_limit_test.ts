import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import { BOT_UA, DESKTOP_UA } from "../../testing/visits.ts";
import { fastRedirect } from "../../routes/[slug].tsx";

const PERSON = { "User-Agent": DESKTOP_UA };
const WEEK = 7 * 86_400_000;
// Link-preview crawlers of chat apps, as they name themselves.
const PREVIEWERS = [
  BOT_UA,
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
  "TelegramBot (like TwitterBot)",
  "WhatsApp/2.23.20.0 A",
];

async function make(t: TestApp, body: Record<string, unknown>) {
  const res = await t.json("/api/create", { url: "example.com/door", ...body });
  assertEquals(res.status, 201, await res.clone().text());
  return await res.json();
}

const visitBy = (t: TestApp, slug: string, headers: Record<string, string> = PERSON) =>
  t.request(`/${slug}`, { headers });

Deno.test("a link with maxVisits redirects its 1st..Nth person and gives the next the 404 page", async () => {
  await using t = await testApp();
  const made = await make(t, { slug: "thrice", maxVisits: 3 });
  assertEquals([made.maxVisits, made.visitsLeft], [3, 3]);
  for (let left = 2; left >= 0; left--) {
    const res = await visitBy(t, "thrice");
    assertEquals(res.status, 302);
    assertEquals(res.headers.get("location"), "https://example.com/door");
    assertEquals(res.headers.get("cache-control"), "no-store");
    if (left > 0) {
      const view = await (await t.request("/api/unshorten?slug=thrice")).json();
      assertEquals([view.maxVisits, view.visitsLeft], [3, left]);
    }
  }
  const after = await visitBy(t, "thrice");
  assertEquals(after.status, 404);
  assertEquals(after.headers.get("location"), null);
  const page = await after.text();
  assertStringIncludes(page, "was used up");
  assertStringIncludes(page, "Where it pointed was shown only to those who opened it");
  assertNotIncludes(page, "example.com");
  assertStringIncludes(page, 'href="/?slug=thrice"');
  // The slug is free again, and the link gone from every list.
  assertEquals((await (await t.request("/api/check?slug=thrice")).json()).exists, false);
  assertEquals(await (await t.request("/api/links")).json(), []);
});

Deno.test("an unlimited link takes the fast path as before; a limited one never does", async () => {
  await using t = await testApp();
  const made = await make(t, { slug: "open" });
  assertEquals([made.maxVisits, made.visitsLeft], [null, null]);
  await make(t, { slug: "limited", maxVisits: 5 });
  // The route's first reads cache both links in this process.
  assertEquals((await visitBy(t, "open")).status, 302);
  assertEquals((await t.request("/limited", { method: "HEAD" })).status, 200);
  assert(t.store.cache.get("limited") !== undefined);
  const fast = fastRedirect(t.deps);
  assertEquals(fast(new Request("http://sho.rt/open", { headers: PERSON }))?.status, 302);
  assertEquals(fast(new Request("http://sho.rt/limited", { headers: PERSON })), null);
});

Deno.test("bots and link-preview crawlers get a 200 page without the destination, and take nothing", async () => {
  await using t = await testApp();
  await make(t, { slug: "once", maxVisits: 1, title: "The meeting room" });
  for (const agent of PREVIEWERS) {
    const res = await visitBy(t, "once", { "User-Agent": agent });
    assertEquals(res.status, 200, agent);
    assertEquals(res.headers.get("location"), null);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await res.text();
    assertStringIncludes(html, "opens for people");
    assertNotIncludes(html, "example.com");
    assertNotIncludes(html, "The meeting room");
  }
  assertEquals((await (await t.request("/api/unshorten?slug=once")).json()).visitsLeft, 1);
  await t.deps.clicks.flush();
  const stats = await (await t.request("/api/stats")).json();
  assertEquals(stats.devices, [{ name: "bot", clicks: PREVIEWERS.length }]);
  assertEquals((await visitBy(t, "once")).status, 302, "the person still gets through");
  await t.deps.clicks.flush();
  // The last visit retired the link: its share, bots' clicks too, left every figure.
  assertEquals((await (await t.request("/api/stats")).json()).devices, []);
  assertEquals((await visitBy(t, "once")).status, 404);
});

Deno.test("HEAD of a limited link takes nothing and never shows the destination", async () => {
  await using t = await testApp();
  await make(t, { slug: "head", maxVisits: 1 });
  for (const headers of [PERSON, { "User-Agent": BOT_UA }]) {
    const res = await t.request("/head", { method: "HEAD", headers });
    assertEquals([res.status, res.headers.get("location")], [200, null]);
    assertEquals(await res.text(), "");
  }
  assertEquals((await (await t.request("/api/unshorten?slug=head")).json()).visitsLeft, 1);
  assertEquals((await visitBy(t, "head")).status, 302);
});

Deno.test("a protected limited link: unlock first, then the visit; a wrong password takes nothing", async () => {
  await using t = await testApp();
  await make(t, { slug: "locked", pass: "open sesame", maxVisits: 1 });
  assertEquals((await visitBy(t, "locked")).status, 401, "locked: no visit taken");
  const wrong = await t.json("/api/unlock", { slug: "locked", pass: "nope" });
  assertEquals(wrong.status, 403);
  assertEquals((await (await t.request("/api/unshorten?slug=locked")).json()).visitsLeft, 1);
  const unlocked = await t.json("/api/unlock", { slug: "locked", pass: "open sesame" });
  assertEquals(unlocked.status, 200);
  const cookie = (unlocked.headers.get("set-cookie") ?? "").split(";")[0]!;
  const bot = await visitBy(t, "locked", { "User-Agent": BOT_UA, Cookie: cookie });
  assertEquals([bot.status, bot.headers.get("location")], [200, null]);
  const res = await visitBy(t, "locked", { ...PERSON, Cookie: cookie });
  assertEquals([res.status, res.headers.get("location")], [302, "https://example.com/door"]);
  const after = await visitBy(t, "locked", { ...PERSON, Cookie: cookie });
  assertEquals(after.status, 404);
  const page = await after.text();
  assertStringIncludes(page, "was used up");
  assertStringIncludes(page, "protected by a password");
  assertNotIncludes(page, "example.com/door");
});

Deno.test("GET /api/unshorten answers 410 usedUp after the last visit; expired keeps its answer", async () => {
  await using t = await testApp();
  await make(t, { slug: "spent", maxVisits: 1 });
  await make(t, { slug: "later", maxVisits: 2 });
  assertEquals((await visitBy(t, "spent")).status, 302);
  const res = await t.request("/api/unshorten?slug=spent");
  assertEquals(res.status, 410);
  assertEquals(await res.json(), {
    error: 'link "spent" was used up: it opened as many times as it was made to',
    slug: "spent",
    usedUp: true,
  });
  t.advance(WEEK);
  const expired = await t.request("/api/unshorten?slug=later");
  assertEquals(expired.status, 410);
  assertEquals((await expired.json()).expired, true);
  // Past its deadline, a used-up link is forgotten as an expired one is swept.
  assertEquals((await t.request("/api/unshorten?slug=spent")).status, 404);
});

Deno.test("list and export report maxVisits and visitsLeft", async () => {
  await using t = await testApp();
  await make(t, { slug: "limited", maxVisits: 4 });
  await make(t, { slug: "plain" });
  await visitBy(t, "limited");
  const links = await (await t.request("/api/links")).json();
  assertEquals(
    links.map((l: Record<string, unknown>) => [l.slug, l.maxVisits, l.visitsLeft]),
    [["plain", null, null], ["limited", 4, 3]],
  );
  const json = await (await t.request("/api/export?format=json")).json();
  assertEquals(json.map((l: Record<string, unknown>) => l.visitsLeft), [null, 3]);
  const csv = (await (await t.request("/api/export?format=csv")).text()).split("\r\n");
  assert(csv[0]!.endsWith(",maxVisits,visitsLeft"));
  assert(csv[1]!.endsWith(",,"), csv[1]);
  assert(csv[2]!.endsWith(",4,3"), csv[2]);
  const page = await (await t.request("/links")).text();
  assertStringIncludes(page, "3 of 4 visits left");
});

Deno.test("POST /api/bulk takes maxVisits per row, and a bad one fails its row alone", async () => {
  await using t = await testApp();
  const res = await t.json("/api/bulk", {
    urls: [
      { url: "example.com/a", maxVisits: 2 },
      { url: "example.com/b", maxVisits: null },
      { url: "example.com/c", maxVisits: 0 },
      { url: "example.com/d", maxVisits: "2" },
      { url: "example.com/e", maxVisits: 10_001 },
      { url: "example.com/f", maxVisits: 1.5 },
      "example.com/g",
    ],
  });
  assertEquals(res.status, 200);
  const rows = await res.json();
  assertEquals(rows.map((r: { ok: boolean }) => r.ok), [
    true,
    false,
    false,
    false,
    false,
    false,
    true,
  ]);
  assertEquals([rows[0].link.maxVisits, rows[0].link.visitsLeft], [2, 2]);
  assertEquals([rows[6].link.maxVisits, rows[6].link.visitsLeft], [null, null]);
  for (const row of rows.slice(1, 6)) {
    assertEquals(row.error, "maxVisits must be a whole number from 1 to 10,000");
  }
  assertEquals((await (await t.request("/api/links")).json()).length, 2);
});

Deno.test("POST /api/create refuses a bad maxVisits with 400 and makes nothing", async () => {
  await using t = await testApp();
  for (const maxVisits of [0, -3, 2.5, "5", "", 10_001, true, [3], { n: 3 }]) {
    const res = await t.json("/api/create", { url: "example.com", slug: "nope", maxVisits });
    assertEquals(res.status, 400, JSON.stringify(maxVisits));
    assertEquals(await res.json(), {
      error: "maxVisits must be a whole number from 1 to 10,000",
    });
  }
  assertEquals(await (await t.request("/api/links")).json(), []);
  const none = await make(t, { slug: "null-is-none", maxVisits: null });
  assertEquals(none.maxVisits, null);
});

Deno.test("a plain form post makes a limited link from the digits typed", async () => {
  await using t = await testApp();
  const form = (maxVisits: string) =>
    t.request("/api/create", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ url: "example.com", maxVisits }),
    });
  const made = await form("1");
  assertEquals(made.status, 201);
  assertEquals((await made.json()).maxVisits, 1);
  assertEquals((await (await form("")).json()).maxVisits, null);
  for (const bad of ["0", "1.5", "ten", "10001"]) assertEquals((await form(bad)).status, 400, bad);
});

Deno.test("a refused form shows the limit as typed, and /links the visits left", async () => {
  await using t = await testApp();
  const post = (maxVisits: string) =>
    t.request("/api/create", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
      body: new URLSearchParams({ url: "example.com", slug: "card", maxVisits }),
    });
  const refused = await post("0");
  assertEquals(refused.status, 400);
  const html = await refused.text();
  assertStringIncludes(html, "The limit of visits must be a whole number from 1 to 10,000");
  assertStringIncludes(html, 'name="maxVisits"');
  assertStringIncludes(html, 'value="0"');
  const made = await post("2");
  assertEquals(made.status, 303);
  const cookie = (made.headers.get("set-cookie") ?? "").split(";")[0]!;
  const card = await t.request(made.headers.get("location")!, { headers: { Cookie: cookie } });
  const cardPage = await card.text();
  assertStringIncludes(cardPage, "Your short link");
  assertStringIncludes(cardPage, "Hidden: shown only to whoever opens the link");
  assertStringIncludes(cardPage, "twice, each by pressing its Open button");
  await visitBy(t, "card");
  assertStringIncludes(await (await t.request("/links")).text(), "1 of 2 visits left");
});

Deno.test("the last visit takes the link's share out of every figure /api/stats shows", async () => {
  await using t = await testApp();
  await make(t, { slug: "stays", url: "example.org/stays" });
  await make(t, { slug: "spent", maxVisits: 2 });
  await visitBy(t, "stays", { ...PERSON, Referer: "https://one.example/" });
  await visitBy(t, "spent", { "User-Agent": BOT_UA });
  await visitBy(t, "spent", { ...PERSON, Referer: "https://two.example/" });
  await t.deps.clicks.flush();
  const during = await (await t.request("/api/stats")).json();
  assertEquals([during.links, during.clicks], [2, 2]);
  assertEquals(during.top.length, 2);
  assertEquals((await visitBy(t, "spent")).status, 302, "the last visit");
  await t.deps.clicks.flush();
  const after = await (await t.request("/api/stats")).json();
  assertEquals([after.links, after.clicks], [1, 1]);
  assertEquals(after.top.map((link: { slug: string }) => link.slug), ["stays"]);
  assertEquals(after.referrers, [{ name: "one.example", clicks: 1 }]);
  assertEquals(after.devices, [{ name: "desktop", clicks: 1 }]);
  const today = (stats: { days: { links: number; clicks: number }[] }) => stats.days.at(-1);
  assertEquals([today(during)?.links, today(during)?.clicks], [2, 2]);
  assertEquals([today(after)?.links, today(after)?.clicks], [1, 1]);
});

Deno.test("a limited link's destination is withheld everywhere, for everyone, cookies or not", async () => {
  await using t = await testApp();
  const made = await make(t, {
    slug: "secret",
    url: "example.com/the-secret-document",
    title: "Minutes",
    note: "for the board",
    maxVisits: 2,
  });
  assertEquals([made.url, made.maxVisits], [null, 2]);
  await make(t, { slug: "both", url: "example.com/the-secret-document", pass: "pw", maxVisits: 2 });
  const unlocked = await t.json("/api/unlock", { slug: "both", pass: "pw" });
  assertEquals(unlocked.status, 200);
  const cookie = { Cookie: (unlocked.headers.get("set-cookie") ?? "").split(";")[0]! };
  for (const slug of ["secret", "both"]) {
    const view = await (await t.request(`/api/unshorten?slug=${slug}`, { headers: cookie }))
      .json();
    assertEquals([view.url, view.visitsLeft], [null, 2], slug);
  }
  const list = await (await t.request("/api/links", { headers: cookie })).json();
  assertEquals(list.map((l: Record<string, unknown>) => [l.slug, l.url, l.host]), [
    ["both", null, null],
    ["secret", null, null],
  ]);
  // Its title, note and figures stay public, as any link's.
  assertEquals([list[1].title, list[1].note, list[1].clicks], ["Minutes", "for the board", 0]);
  const text = await (await t.request("/api/export", { headers: cookie })).text();
  assertEquals(text.split("\n").map((line) => line.split("\t")[1]), [
    "(protected)",
    "(limited)",
    undefined,
  ]);
  const csv = await (await t.request("/api/export?format=csv", { headers: cookie })).text();
  assertStringIncludes(csv, ",(limited),,Minutes,");
  const json = await (await t.request("/api/export?format=json", { headers: cookie })).json();
  assertEquals(json.map((l: Record<string, unknown>) => l.url), [null, null]);
  for (
    const path of ["/links", "/links/secret", "/links/both", "/api/stats", "/api/stats?slug=secret"]
  ) {
    const body = await (await t.request(path, { headers: cookie })).text();
    assertNotIncludes(body, "the-secret-document", path);
  }
  assertStringIncludes(
    await (await t.request("/links/secret")).text(),
    "Hidden: shown only to whoever opens the link",
  );
});

Deno.test("an expired limited link's 404 page never names its destination", async () => {
  await using t = await testApp();
  await make(t, { slug: "lapsed", url: "example.com/the-secret-document", maxVisits: 3 });
  t.advance(WEEK);
  const res = await t.request("/lapsed");
  assertEquals(res.status, 404);
  const page = await res.text();
  assertStringIncludes(
    page,
    "It opened a limited number of times, so where it pointed is not shown",
  );
  assertNotIncludes(page, "the-secret-document");
});
