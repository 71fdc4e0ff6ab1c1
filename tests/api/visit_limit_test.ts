import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import { BOT_UA, DESKTOP_UA } from "../../testing/visits.ts";
import { fastRedirect } from "../../routes/[slug].tsx";
import { CROSS_SITE_SIMPLE } from "../../routes/_lib/cross_site.ts";

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
/** Presses the Open button: the form's POST, as a browser on the service's own page sends it. */
const openBy = (t: TestApp, slug: string, headers: Record<string, string> = PERSON) =>
  t.request(`/${slug}`, { method: "POST", headers });
const visitsLeft = async (t: TestApp, slug: string) =>
  (await (await t.request(`/api/unshorten?slug=${slug}`)).json()).visitsLeft;

// What takes a visit when a GET does, and must not: an <img>, an empty User-Agent, a mail
// scanner with a browser's User-Agent, a prefetch, and link-preview crawlers.
const READERS: Record<string, string>[] = [
  PERSON,
  { "User-Agent": DESKTOP_UA, Accept: "image/avif,image/webp,*/*" },
  {},
  { "User-Agent": "" },
  {
    "User-Agent":
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Trident/7.0; rv:11.0) like Gecko OfficeSafeLinks",
  },
  { ...PERSON, "Sec-Purpose": "prefetch" },
  ...PREVIEWERS.map((agent) => ({ "User-Agent": agent })),
];

Deno.test("GET of a limited link, any client's, answers the Open page and takes nothing", async () => {
  await using t = await testApp();
  await make(t, { slug: "thrice", maxVisits: 3, title: "The <b>meeting</b> room" });
  for (const headers of READERS) {
    const res = await visitBy(t, "thrice", headers);
    const label = JSON.stringify(headers);
    assertEquals(res.status, 200, label);
    assertEquals(res.headers.get("location"), null);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
    assertStringIncludes(
      res.headers.get("content-security-policy")!,
      "form-action 'self' http: https:",
    );
    const html = await res.text();
    assertNotIncludes(html, "example.com");
    assertStringIncludes(html, "This link opens <strong>3 more times</strong>, until");
    assertStringIncludes(html, "2026-11-09 12:00 UTC");
    assertStringIncludes(html, '<form method="post" action="/thrice">');
    assertStringIncludes(html, '<button type="submit" class="open-button">Open</button>');
    // The title is public, and shown as text; nothing presses the button for the reader.
    assertStringIncludes(html, "The &lt;b>meeting&lt;/b> room");
    assertNotIncludes(html, "<script");
    assertNotIncludes(html, "http-equiv");
  }
  assertEquals(await visitsLeft(t, "thrice"), 3);
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/stats")).json()).devices, [], "no click either");
  const once = await make(t, { slug: "last-one", maxVisits: 1 });
  assertEquals(once.visitsLeft, 1);
  assertStringIncludes(await (await visitBy(t, "last-one")).text(), "<strong>once more</strong>");
});

Deno.test("POST /<slug> takes one visit, 303 to the destination; the last retires the link", async () => {
  await using t = await testApp();
  await make(t, { slug: "thrice", maxVisits: 3 });
  for (let left = 2; left >= 0; left--) {
    const res = await openBy(t, "thrice");
    assertEquals(res.status, 303);
    assertEquals(res.headers.get("location"), "https://example.com/door");
    assertEquals(res.headers.get("referrer-policy"), "unsafe-url");
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(res.headers.get("access-control-allow-origin"), "*");
    if (left > 0) {
      assertEquals(await visitsLeft(t, "thrice"), left);
      assertStringIncludes(
        await (await visitBy(t, "thrice")).text(),
        left === 1 ? "once more" : "twice more",
      );
    }
  }
  for (const after of [await openBy(t, "thrice"), await visitBy(t, "thrice")]) {
    assertEquals(after.status, 404);
    assertEquals(after.headers.get("location"), null);
    const page = await after.text();
    assertStringIncludes(page, "was used up");
    assertStringIncludes(page, "Where it pointed was shown only to those who opened it");
    assertNotIncludes(page, "example.com");
    assertStringIncludes(page, 'href="/?slug=thrice"');
  }
  // The slug is free again, and the link gone from every list.
  assertEquals((await (await t.request("/api/check?slug=thrice")).json()).exists, false);
  assertEquals(await (await t.request("/api/links")).json(), []);
});

Deno.test("from a terminal, a POST with neither Origin nor Sec-Fetch-Site takes a visit", async () => {
  await using t = await testApp();
  await make(t, { slug: "term", maxVisits: 2 });
  const res = await openBy(t, "term", { "User-Agent": "curl/8.5.0", Accept: "*/*" });
  assertEquals([res.status, res.headers.get("location")], [303, "https://example.com/door"]);
  assertEquals(await visitsLeft(t, "term"), 1);
});

Deno.test("an Open is a click in the figures; a bot's Open takes a visit but counts as a bot", async () => {
  await using t = await testApp();
  await make(t, { slug: "counted", maxVisits: 5 });
  await visitBy(t, "counted");
  assertEquals(
    (await openBy(t, "counted", { ...PERSON, Referer: "https://chat.example/" })).status,
    303,
  );
  assertEquals((await openBy(t, "counted", { "User-Agent": BOT_UA })).status, 303);
  await t.deps.clicks.flush();
  const view = await (await t.request("/api/unshorten?slug=counted")).json();
  assertEquals([view.clicks, view.visitsLeft], [1, 3]);
  const stats = await (await t.request("/api/stats?slug=counted")).json();
  assertEquals(stats.devices, [{ name: "bot", clicks: 1 }, { name: "desktop", clicks: 1 }]);
  assertEquals(stats.referrers, [{ name: "chat.example", clicks: 1 }]);
  assert(stats.lastUsedAt !== null);
});

Deno.test("an unlimited link takes the fast path as before, bots included; a limited one never does", async () => {
  await using t = await testApp();
  const made = await make(t, { slug: "open" });
  assertEquals([made.maxVisits, made.visitsLeft], [null, null]);
  await make(t, { slug: "limited", maxVisits: 5 });
  // The route's first reads cache both links in this process.
  assertEquals((await visitBy(t, "open")).status, 302);
  assertEquals((await t.request("/limited", { method: "HEAD" })).status, 200);
  assert(t.linkCache.get("limited") !== undefined);
  const fast = fastRedirect(t.deps);
  for (const headers of [PERSON, { "User-Agent": BOT_UA }, {}]) {
    const res = fast(new Request("http://sho.rt/open", { headers }));
    assertEquals([res?.status, res?.headers.get("location")], [302, "https://example.com/door"]);
    assertEquals(fast(new Request("http://sho.rt/limited", { headers })), null);
  }
  assertEquals((await visitBy(t, "open", { "User-Agent": BOT_UA })).status, 302);
});

Deno.test("POST /<slug> of an unlimited link opens it as its GET does; an unknown one is the 404 page", async () => {
  await using t = await testApp();
  await make(t, { slug: "plain" });
  const res = await openBy(t, "plain");
  assertEquals([res.status, res.headers.get("location")], [303, "https://example.com/door"]);
  assertEquals(res.headers.get("referrer-policy"), "unsafe-url");
  assertEquals(res.headers.get("cache-control"), "no-store");
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/unshorten?slug=plain")).json()).clicks, 1);
  const unknown = await openBy(t, "nobody-here");
  assertEquals(unknown.status, 404);
  assertStringIncludes(await unknown.text(), "The name is free");
  t.advance(WEEK);
  const expired = await openBy(t, "plain");
  assertEquals(expired.status, 404);
  assertStringIncludes(await expired.text(), "expired on");
  await make(t, { slug: "live" });
  const put = await t.request("/live", { method: "PUT" });
  assertEquals([put.status, put.headers.get("allow")], [405, "GET, HEAD, POST"]);
});

Deno.test("HEAD of a limited link takes nothing and never shows the destination", async () => {
  await using t = await testApp();
  await make(t, { slug: "head", maxVisits: 1 });
  for (const headers of [PERSON, { "User-Agent": BOT_UA }]) {
    const res = await t.request("/head", { method: "HEAD", headers });
    assertEquals([res.status, res.headers.get("location")], [200, null]);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(await res.text(), "");
  }
  assertEquals(await visitsLeft(t, "head"), 1);
  assertEquals((await openBy(t, "head")).status, 303);
});

Deno.test("a protected limited link: unlock first, then the Open page; only Open takes the visit", async () => {
  await using t = await testApp();
  await make(t, { slug: "locked", pass: "open sesame", maxVisits: 1 });
  assertEquals((await visitBy(t, "locked")).status, 401, "locked: the unlock page");
  const refused = await openBy(t, "locked");
  assertEquals([refused.status, refused.headers.get("location")], [401, null]);
  assertStringIncludes(await refused.text(), "is protected by a password");
  const wrong = await t.json("/api/unlock", { slug: "locked", pass: "nope" });
  assertEquals(wrong.status, 403);
  assertEquals(await visitsLeft(t, "locked"), 1);
  const unlocked = await t.json("/api/unlock", { slug: "locked", pass: "open sesame" });
  assertEquals(unlocked.status, 200);
  const cookie = (unlocked.headers.get("set-cookie") ?? "").split(";")[0]!;
  for (const agent of [DESKTOP_UA, BOT_UA]) {
    const page = await visitBy(t, "locked", { "User-Agent": agent, Cookie: cookie });
    assertEquals([page.status, page.headers.get("location")], [200, null]);
    const html = await page.text();
    assertStringIncludes(html, '<form method="post" action="/locked">');
    assertNotIncludes(html, "example.com");
  }
  const head = await t.request("/locked", { method: "HEAD", headers: { Cookie: cookie } });
  assertEquals(head.status, 401, "a protected link's HEAD is the locked answer, cookie or not");
  assertEquals(await visitsLeft(t, "locked"), 1);
  const res = await openBy(t, "locked", { ...PERSON, Cookie: cookie });
  assertEquals([res.status, res.headers.get("location")], [303, "https://example.com/door"]);
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
  assertEquals((await openBy(t, "spent")).status, 303);
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
  await openBy(t, "limited");
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
  await openBy(t, "card");
  assertStringIncludes(await (await t.request("/links")).text(), "1 of 2 visits left");
});

Deno.test("the last visit takes the link's share out of every figure /api/stats shows", async () => {
  await using t = await testApp();
  await make(t, { slug: "stays", url: "example.org/stays" });
  await make(t, { slug: "spent", maxVisits: 2 });
  await visitBy(t, "stays", { ...PERSON, Referer: "https://one.example/" });
  await openBy(t, "spent", { ...PERSON, Referer: "https://two.example/" });
  await t.deps.clicks.flush();
  const during = await (await t.request("/api/stats")).json();
  assertEquals([during.links, during.clicks], [2, 2]);
  assertEquals(during.top.length, 2);
  assertEquals((await openBy(t, "spent")).status, 303, "the last visit");
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

Deno.test("an Open pressed on the link's page counts the referrer of the page, not the page", async () => {
  await using t = await testApp();
  await make(t, { slug: "from", maxVisits: 5 });
  const page = await (await visitBy(t, "from", {
    ...PERSON,
    Referer: 'https://chat.example/room?x="<y>"',
  })).text();
  assertStringIncludes(
    page,
    '<input type="hidden" name="from" value="https://chat.example/room?x=&quot;&lt;y>&quot;">',
  );
  const press = (from: string, referer = "http://sho.rt/from") =>
    t.request("/from", {
      method: "POST",
      headers: {
        ...PERSON,
        Referer: referer,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ from }),
    });
  assertEquals((await press("https://chat.example/room")).status, 303);
  assertEquals((await press("")).status, 303, "the page came with no referrer: direct");
  // From another page, the form's field is not believed: the Referer counts.
  assertEquals((await press("https://forged.example/", "https://blog.example/post")).status, 303);
  await t.deps.clicks.flush();
  const stats = await (await t.request("/api/stats?slug=from")).json();
  assertEquals(stats.referrers, [
    { name: "blog.example", clicks: 1 },
    { name: "chat.example", clicks: 1 },
    { name: "direct", clicks: 1 },
  ]);
});

Deno.test("no other site can spend visits: a cross-site Open is refused with 403 and takes nothing", async () => {
  await using t = await testApp();
  await make(t, { slug: "guarded", maxVisits: 1 });
  const form = { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" };
  const refused: Record<string, string>[] = [
    { ...PERSON, ...form, "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
    { ...PERSON, ...form, "Sec-Fetch-Site": "same-site", Origin: "https://sub.sho.rt" },
    { ...PERSON, ...form, Origin: "https://evil.example" },
    { ...PERSON, ...form, Origin: "null" },
    { ...PERSON, "Sec-Fetch-Site": "cross-site" }, // a bodiless fetch in no-cors mode
  ];
  for (const headers of refused) {
    const res = await t.request("/guarded", {
      method: "POST",
      headers,
      body: headers["Content-Type"] ? "from=" : undefined,
    });
    const label = JSON.stringify(headers);
    assertEquals(res.status, 403, label);
    assertEquals(res.headers.get("location"), null, label);
    assertEquals(await res.json(), { error: CROSS_SITE_SIMPLE }, label);
  }
  assertEquals(await visitsLeft(t, "guarded"), 1);
  await t.deps.clicks.flush();
  assertEquals((await (await t.request("/api/stats")).json()).clicks, 0, "no click counted");
  // The service's own page may, and so may a client that sends neither header (curl).
  const own = await openBy(t, "guarded", {
    ...PERSON,
    ...form,
    "Sec-Fetch-Site": "same-origin",
    Origin: "http://sho.rt",
  });
  assertEquals([own.status, own.headers.get("location")], [303, "https://example.com/door"]);
  await make(t, { slug: "by-curl", maxVisits: 1 });
  const curl = await openBy(t, "by-curl", { "User-Agent": "curl/8.5.0" });
  assertEquals([curl.status, curl.headers.get("location")], [303, "https://example.com/door"]);
});

Deno.test("the pages' help text says a limited link opens by its Open button", async () => {
  await using t = await testApp();
  const home = await (await t.request("/")).text();
  assertStringIncludes(home, 'aria-describedby="create-max-visits-help"');
  assertStringIncludes(
    home,
    "Each visit is a press of the link&#39;s Open button; where it goes stays hidden until then.",
  );
  const about = await (await t.request("/about")).text();
  assertStringIncludes(about, "only pressing it uses one of");
});
