import { DOMParser } from "linkedom";
import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import {
  CONTENT_SECURITY_POLICY,
  ONWARD_FORM_CONTENT_SECURITY_POLICY,
} from "../../routes/_lib/html.ts";
import {
  BULK_PASS_FOR_KEPT_LINES,
  BULK_PASS_REFUSED,
} from "../../routes/_lib/post_redirect_get.tsx";
import { makeRoute as makeStatsRoute } from "../../routes/stats.tsx";
import type { Stats } from "../../lib/stats/types.ts";
import { linkKey } from "../../lib/kv/keys.ts";
import type { LogLine } from "../../lib/log/mod.ts";
import { DESKTOP_UA, MOBILE_UA } from "../../testing/visits.ts";

const HOSTILE_TITLE = "<img src=x onerror=alert(1)>";
const HOSTILE_NOTE = "</script><script>alert(1)</script>";
const HOSTILE_URL = 'https://example.com/"><script>alert(1)</script>';

const PAGES = [
  "/",
  "/links",
  "/links/hostile",
  "/stats",
  "/docs",
  "/about",
  "/changelog",
  "/no/such/page",
  "/free-name",
];

// deno-lint-ignore no-explicit-any
type Doc = any;

function parse(html: string): Doc {
  return new DOMParser().parseFromString(html, "text/html");
}

/** Every script loads from a file (or is JSON data), and nothing carries a style attribute. */
function assertStrictMarkup(doc: Doc, path: string): void {
  for (const script of doc.querySelectorAll("script")) {
    const type = script.getAttribute("type") ?? "";
    assert(script.hasAttribute("src") || type === "application/json", `inline script on ${path}`);
  }
  assertEquals(doc.querySelectorAll("[style]").length, 0, `style attribute on ${path}`);
  assertEquals(doc.querySelectorAll("style").length, 0, `style element on ${path}`);
  for (const element of doc.querySelectorAll("*")) {
    for (const name of element.getAttributeNames()) {
      assert(!name.startsWith("on"), `event handler attribute ${name} on ${path}`);
    }
  }
}

function form(fields: Record<string, string>, accept = "text/html,application/xhtml+xml") {
  return {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: accept },
    body: new URLSearchParams(fields),
  };
}

/** A page as a browser asks for it: with `Accept` naming HTML, unless `init` says otherwise. */
async function page(t: TestApp, path: string, init: RequestInit = {}) {
  const headers = { Accept: "text/html,application/xhtml+xml", ...init.headers as object };
  const res = await t.request(path, { ...init, headers });
  const html = await res.text();
  return { res, html, doc: parse(html) };
}

async function makeHostileLinks(t: TestApp) {
  const open = await t.json("/api/create", {
    url: HOSTILE_URL,
    slug: "hostile",
    title: HOSTILE_TITLE,
    note: HOSTILE_NOTE,
  });
  assertEquals(open.status, 201);
  const locked = await t.json("/api/create", {
    url: "https://secret.example/hidden",
    slug: "locked",
    title: HOSTILE_NOTE,
    pass: "pw",
  });
  assertEquals(locked.status, 201);
}

Deno.test("every page answers with the strict CSP, no inline script and no style attribute", async () => {
  await using t = await testApp();
  await makeHostileLinks(t);
  for (const path of [...PAGES, "/locked"]) {
    const { res, doc } = await page(t, path);
    const expected = path.startsWith("/no/") || path === "/free-name"
      ? 404
      : path === "/locked"
      ? 401
      : 200;
    assertEquals(res.status, expected, path);
    assertEquals(
      res.headers.get("content-security-policy"),
      path === "/locked" ? ONWARD_FORM_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY,
      path,
    );
    assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8", path);
    assertStrictMarkup(doc, path);
    assertEquals(doc.querySelectorAll("main h1").length, 1, `one h1 on ${path}`);
    // What a crawler and a link preview show of the page.
    const description = doc.querySelector('meta[name="description"]')?.getAttribute("content");
    assert(description && description.length >= 40, `a meta description on ${path}`);
  }
});

Deno.test("pages with islands load the one hydrating entry and carry each island's props", async () => {
  await using t = await testApp();
  const { doc } = await page(t, "/");
  const scripts = [...doc.querySelectorAll("script[src]")].map((s: Doc) => s.getAttribute("src"));
  assertEquals(scripts, ["/static/build/_client.js"]);
  const islands = [...doc.querySelectorAll("[data-island]")].map((el: Doc) => el.dataset.island);
  assertEquals(islands, ["CreateForm", "BulkForm", "RecentLinks"]);
  const props = JSON.parse(doc.querySelector('[data-island="CreateForm"]').dataset.props);
  assertEquals(props.slugPattern, "^[A-Za-z0-9][A-Za-z0-9_-]{2,47}$");
  const about = (await page(t, "/about")).doc;
  assertEquals(about.querySelectorAll("script").length, 0);
});

Deno.test("every island module is registered with the hydrating entry", async () => {
  const { ISLANDS } = await import("../../islands/_client.ts");
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL("../../islands/", import.meta.url))) {
    if (entry.isFile && /^[A-Z]\w*\.tsx$/.test(entry.name)) files.push(entry.name.slice(0, -4));
  }
  assertEquals(Object.keys(ISLANDS).sort(), files.sort());
});

Deno.test("the start page's create form posts the API's field names to /api/create", async () => {
  await using t = await testApp();
  const { doc } = await page(t, "/");
  const create = doc.querySelector('form[action="/api/create"]');
  assertEquals(create.getAttribute("method"), "post");
  const names = [...create.querySelectorAll("[name]")].map((el: Doc) => el.getAttribute("name"));
  assertEquals(names, ["url", "slug", "title", "note", "pass", "maxVisits"]);
  for (const control of create.querySelectorAll("input, textarea")) {
    const label = doc.querySelector(`label[for="${control.id}"]`);
    assert(label?.textContent.trim(), `label of ${control.getAttribute("name")}`);
  }
  const bulk = doc.querySelector('form[action="/api/bulk"]');
  assertEquals(
    [...bulk.querySelectorAll("[name]")].map((el: Doc) => el.getAttribute("name")),
    ["urls", "pass"],
  );
});

Deno.test("GET /?slug= fills in the custom slug, escaped", async () => {
  await using t = await testApp();
  const { doc, html } = await page(t, `/?slug=${encodeURIComponent('claim-me"><b>x')}`);
  assertEquals(doc.querySelector("#create-slug").getAttribute("value"), 'claim-me"><b>x');
  assertNotIncludes(html, "<b>x");
  // Come to claim the name: the destination, still empty, has the focus.
  assert(doc.querySelector("#create-url").hasAttribute("autofocus"));
  const plain = await page(t, "/");
  assert(!plain.doc.querySelector("#create-url").hasAttribute("autofocus"));
});

/** A form post's `lapse_made` cookie, as the browser sends it back. */
function madeCookie(res: Response): string {
  const set = res.headers.get("set-cookie") ?? "";
  assertStringIncludes(set, "HttpOnly");
  assertStringIncludes(set, "SameSite=Lax");
  assertStringIncludes(set, "Max-Age=3600");
  return set.split(";")[0]!;
}

/**
 * A browser's bulk form post and the page it is sent on to: the post answers 303 to
 * `/?bulk=<id>` with the `lapse_bulk` cookie, and the page is read with that cookie.
 */
async function postBulk(t: TestApp, fields: Record<string, string>) {
  const posted = await t.request("/api/bulk", form(fields));
  assertEquals(posted.status, 303);
  const location = posted.headers.get("location") ?? "";
  assert(/^\/\?bulk=[\w-]{22}$/.test(location), location);
  const cookie = madeCookie(posted);
  assertEquals(cookie, `lapse_bulk=${location.slice("/?bulk=".length)}`);
  return { location, cookie, ...await page(t, location, { headers: { Cookie: cookie } }) };
}

Deno.test("a browser's create form post goes on (303) to the start page with the new link's card", async () => {
  await using t = await testApp();
  const posted = await t.request(
    "/api/create",
    form({ url: "example.com/form", slug: "by-form", title: HOSTILE_TITLE, note: "", pass: "" }),
  );
  assertEquals(posted.status, 303);
  assertEquals(posted.headers.get("location"), "/?made=by-form");
  assertEquals(posted.headers.get("cache-control"), "no-store");
  assertEquals(await posted.text(), "");
  const cookie = madeCookie(posted);
  assertEquals(cookie, "lapse_made=by-form");
  const { res, doc } = await page(t, "/?made=by-form", { headers: { Cookie: cookie } });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  assertEquals(res.headers.get("cache-control"), "no-store");
  const card = doc.querySelector(".result");
  const link = card.querySelector(".short-url a");
  assertEquals(link.getAttribute("href"), "http://sho.rt/by-form");
  assertEquals(link.textContent, "http://sho.rt/by-form");
  assertEquals(link.innerHTML, "http://sho.rt/<wbr>by-form", "wraps before the slug if at all");
  assertStringIncludes(card.textContent, "https://example.com/form");
  assertStringIncludes(card.textContent, HOSTILE_TITLE);
  assertEquals(card.querySelectorAll("img").length, 1);
  assertEquals(card.querySelector("img.qr").getAttribute("src"), "/api/qr?slug=by-form");
  assertEquals(card.querySelector(".expiry strong").textContent, "7 days");
  assertEquals(card.querySelector("time").getAttribute("datetime"), "2026-11-09T12:00:00.000Z");
  assertStringIncludes(card.querySelector(".expiry").textContent, "2026-11-09 12:00 UTC");
  // The card leads to the link's own page, and comes before the form.
  assertEquals(
    [...card.querySelectorAll("a")].map((a: Doc) => a.getAttribute("href")).at(-1),
    "/links/by-form",
  );
  assertEquals(
    doc.querySelector(".result + form, .result ~ form")?.getAttribute("action"),
    "/api/create",
  );
  // The form is empty again, ready for the next link.
  assertEquals(doc.querySelector("#create-url").getAttribute("value"), "");
  assertEquals((await t.request("/by-form")).headers.get("location"), "https://example.com/form");
  const head = await t.request("/?made=by-form", { method: "HEAD", headers: { Cookie: cookie } });
  assertEquals(head.status, 200);
  assertEquals(head.headers.get("cache-control"), "no-store");
});

Deno.test("/?made= shows a card only to the browser that made the link, while the link lives", async () => {
  await using t = await testApp();
  const made = async (fields: Record<string, string>) => {
    const posted = await t.request("/api/create", form(fields));
    assertEquals(posted.status, 303);
    return madeCookie(posted);
  };
  // The card's text, or null when the page has none.
  const card = async (made: string, cookie: string | null): Promise<string | null> => {
    const headers: Record<string, string> = cookie === null ? {} : { Cookie: cookie };
    const { res, doc, html } = await page(t, `/?made=${encodeURIComponent(made)}`, { headers });
    assertEquals(res.status, 200, made);
    assertNotIncludes(html, "secret.example");
    return doc.querySelector(".result")?.textContent ?? null;
  };
  const locked = await made({ url: "https://secret.example/x", slug: "locked", pass: "pw" });
  assertStringIncludes(await card("locked", locked) ?? "", "Hidden: protected by a password");
  // Anyone else, or this browser for another link: the plain start page, not a stranger's card.
  assertEquals(await card("locked", null), null);
  assertEquals(await card("locked", "lapse_made=other"), null);
  // A removed link, or one past its deadline though not yet swept, has no card.
  const going = await made({ url: "example.com/going", slug: "going" });
  await t.request("/api/remove?slug=going", { method: "DELETE" });
  assertEquals(await card("going", going), null);
  const ending = await made({ url: "example.com/ending", slug: "ending" });
  assert(await card("ending", ending) !== null);
  t.advance(7 * 24 * 3600 * 1000);
  assertEquals(await card("ending", ending), null);
  // A record under a reserved word never redirects, so it gets no card either.
  const record = (await t.store.kv.get<Record<string, unknown>>(linkKey("ending"))).value!;
  await t.store.kv.set(linkKey("docs"), {
    ...record,
    slug: "docs",
    expiresAt: t.now() + 3_600_000,
  });
  assertEquals(await card("docs", "lapse_made=docs"), null);
  // With no card, a custom name to claim is still filled in.
  const { doc } = await page(t, "/?made=nobody&slug=claim-me");
  assertEquals(doc.querySelector("#create-slug").getAttribute("value"), "claim-me");
  assertEquals(doc.querySelector(".result"), null);
});

Deno.test("a refused create form post shows the form again with the reason and the values", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/first", slug: "taken" });
  const fields = {
    url: "example.com/second",
    slug: "taken",
    title: HOSTILE_TITLE,
    note: HOSTILE_NOTE,
    pass: "secret-pass",
  };
  const { res, doc, html } = await page(t, "/api/create", form(fields));
  assertEquals(res.status, 409);
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  assertEquals(
    doc.querySelector('[role="alert"]').textContent,
    'Custom name "taken" is already taken',
  );
  assertEquals(doc.querySelector("#create-url").getAttribute("value"), "example.com/second");
  assertEquals(doc.querySelector("#create-slug").getAttribute("value"), "taken");
  assertEquals(doc.querySelector("#create-title").getAttribute("value"), HOSTILE_TITLE);
  // linkedom leaves a textarea's text undecoded; a browser shows it as typed.
  assertStringIncludes(html, "&lt;/script>&lt;script>alert(1)&lt;/script></textarea>");
  assertEquals(doc.querySelector("#create-pass").getAttribute("value"), null);
  assertNotIncludes(html, "secret-pass");
  assertEquals(
    doc.querySelector("#create-pass-help").textContent,
    "Type it again: a refused form does not send it back.",
  );
  assertNotIncludes(html, HOSTILE_NOTE);
  const invalid = await page(t, "/api/create", form({ url: "", slug: "x" }));
  assertEquals(invalid.res.status, 400);
  assertStringIncludes(invalid.doc.querySelector('[role="alert"]').textContent, "Destination");
  assertEquals(
    invalid.doc.querySelector("#create-pass-help").textContent,
    "Visitors must enter it before they are sent on.",
    "no password given, none to type again",
  );
  const reserved = await page(t, "/api/create", form({ url: "example.com", slug: "stats" }));
  assertEquals(reserved.res.status, 400);
  assertEquals(
    reserved.doc.querySelector('[role="alert"]').textContent,
    'Custom name "stats" is reserved',
  );
});

Deno.test("a browser over the create limit gets the form again with 429 and Retry-After", async () => {
  await using t = await testApp();
  for (let i = 0; i < 30; i++) await t.json("/api/create", { url: `example.com/${i}` });
  const { res, doc } = await page(t, "/api/create", form({ url: "example.com/over" }));
  assertEquals(res.status, 429);
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  assert(Number(res.headers.get("retry-after")) > 0);
  assertStringIncludes(doc.querySelector('[role="alert"]').textContent, "30");
  assertEquals(doc.querySelector("#create-url").getAttribute("value"), "example.com/over");
});

Deno.test("the links and stats pages over their limits answer 429 with Retry-After and RateLimit headers", async () => {
  await using t = await testApp();
  for (const [path, limit] of [["/links", 30], ["/stats", 60]] as const) {
    for (let i = 0; i < limit; i++) await (await t.request(path)).body?.cancel();
    const res = await t.request(path, { headers: { Accept: "text/html" } });
    assertEquals(res.status, 429, path);
    assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert(Number(res.headers.get("retry-after")) > 0, path);
    assertEquals(res.headers.get("ratelimit-limit"), String(limit));
    assertEquals(res.headers.get("ratelimit-remaining"), "0");
    assert(Number(res.headers.get("ratelimit-reset")) > 0, path);
    assertStringIncludes(await res.text(), `rate limit of ${limit} requests per minute`);
  }
});

Deno.test("API clients keep JSON from /api/create, form bodies included", async () => {
  await using t = await testApp();
  const made = await t.request("/api/create", form({ url: "example.com/a" }, "*/*"));
  assertEquals(made.status, 201);
  assertEquals(made.headers.get("content-type"), "application/json");
  const refused = await t.request("/api/create", form({ url: "" }, "application/json"));
  assertEquals(refused.status, 400);
  assertEquals(refused.headers.get("content-type"), "application/json");
});

Deno.test("a browser's bulk form post sends lines and gets the outcome row by row", async () => {
  await using t = await testApp();
  const urls = "example.com/1\r\n\r\n  not a url  \r\nexample.org/2\r\n";
  const { res, doc, location, cookie } = await postBulk(t, { urls, pass: "" });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  assertEquals(res.headers.get("cache-control"), "no-store");
  const rows = [...doc.querySelectorAll(".bulk-row")];
  assertEquals(rows.length, 3);
  assertEquals(rows.map((row: Doc) => row.classList.contains("failed")), [false, true, false]);
  assertStringIncludes(rows[1].textContent, "not a url");
  assertStringIncludes(rows[1].textContent, "Destination must not contain spaces");
  assertEquals(doc.querySelector("details.bulk").hasAttribute("open"), true);
  assertEquals(doc.querySelector("#bulk-urls").textContent, "not a url", "the failed line stays");
  const links = await (await t.request("/api/links")).json();
  assertEquals(links.length, 2);
  // Loaded again, the page shows the same outcome and makes nothing.
  const again = await page(t, location, { headers: { Cookie: cookie } });
  assertEquals(again.doc.querySelectorAll(".bulk-row").length, 3);
  assertEquals((await (await t.request("/api/links")).json()).length, 2);
  // A link deleted since says so; the other is as it is now.
  const shortUrls = rows.map((row: Doc) => row.querySelector("a")?.getAttribute("href") ?? null);
  assertEquals(shortUrls[1], null);
  const [first, last] = [shortUrls[0]!, shortUrls[2]!];
  await t.request(`/api/remove?slug=${first.slice("http://sho.rt/".length)}`, { method: "DELETE" });
  const later = await page(t, location, { headers: { Cookie: cookie } });
  const now = [...later.doc.querySelectorAll(".bulk-row")].map((row: Doc) => row.textContent);
  assertStringIncludes(now[0], "Deleted or expired since it was made");
  assertStringIncludes(now[0], first);
  assertStringIncludes(now[2], last);
  assertNotIncludes(now[2], "Deleted");
  // Another browser, a wrong id, or an hour later: the plain start page.
  const strangers: Record<string, string>[] = [{}, { Cookie: "lapse_bulk=AAAAAAAAAAAAAAAAAAAAAA" }];
  for (const headers of strangers) {
    const other = await page(t, location, { headers });
    assertEquals(other.res.status, 200);
    assertEquals(other.doc.querySelectorAll(".bulk-row").length, 0);
  }
  t.advance(3_600_000);
  const gone = await page(t, location, { headers: { Cookie: cookie } });
  assertEquals(gone.doc.querySelectorAll(".bulk-row").length, 0);
});

Deno.test("a bulk outcome too large to keep is answered at once, as the page", async () => {
  const lines: LogLine[] = [];
  await using t = await testApp({ log: (line) => lines.push(line) });
  // Ten failed lines filling the 64 KiB body: with their reasons, over the store's value limit.
  const urls = Array.from({ length: 10 }, (_, i) => `${i}${"x".repeat(6_539)}`).join("\n");
  const { res, doc } = await page(t, "/api/bulk", form({ urls }));
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("set-cookie"), null);
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(doc.querySelectorAll(".bulk-row.failed").length, 10);
  assertEquals(doc.querySelector("#bulk-urls").textContent, urls);
  // Expected of such lines, not a fault: nothing is logged but the request.
  assertEquals(lines.filter((line) => line.level !== "info"), []);
});

Deno.test("a bulk outcome the store fails to keep is answered at once, with the links made", async () => {
  const lines: LogLine[] = [];
  await using t = await testApp({ log: (line) => lines.push(line) });
  // Only the outcome's own write fails: links are written by atomic commits, which still land.
  t.store.kv.set = () => Promise.reject(new Error("simulated store failure"));
  const { res, doc } = await page(t, "/api/bulk", form({ urls: "example.com/1\nnot a url" }));
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("set-cookie"), null);
  assertEquals(res.headers.get("cache-control"), "no-store");
  const rows = [...doc.querySelectorAll(".bulk-row")];
  assertEquals(rows.map((row: Doc) => row.classList.contains("failed")), [false, true]);
  const links = await (await t.request("/api/links")).json();
  assertEquals(links.length, 1);
  assertStringIncludes(rows[0].textContent, links[0].shortUrl);
  assertEquals(doc.querySelector("#bulk-urls").textContent, "not a url");
  const warnings = lines.filter((line) => line.level !== "info").map((line) => line.msg);
  assertEquals(warnings, ["bulk outcome not kept"]);
});

Deno.test("a bulk form post given a password says it must be typed again for the lines kept", async () => {
  await using t = await testApp();
  const passHelp = (doc: Doc) => doc.querySelector("#bulk-pass-help")?.textContent ?? null;
  const describedBy = (doc: Doc) =>
    doc.querySelector("#bulk-pass").getAttribute("aria-describedby");
  // A line failed and stays in the field; the made links are protected, the kept line not yet.
  const partly = await postBulk(t, { urls: "example.com/1\nnot a url", pass: "pw" });
  assertEquals(partly.res.status, 200);
  assertNotIncludes(partly.html, 'pw"');
  assertEquals(partly.doc.querySelector("#bulk-urls").textContent, "not a url");
  assertEquals(passHelp(partly.doc), BULK_PASS_FOR_KEPT_LINES);
  assertEquals(describedBy(partly.doc), "bulk-pass-help");
  assertEquals(partly.doc.querySelector("#bulk-pass").getAttribute("value"), null);
  // Every line made: nothing is kept, nothing to say.
  const whole = await postBulk(t, { urls: "example.com/2", pass: "pw" });
  assertEquals(passHelp(whole.doc), null);
  assertEquals(describedBy(whole.doc), null);
  // Refused whole, with a password: it must be typed again; without one, no word of it.
  const eleven = Array.from({ length: 11 }, (_, i) => `example.com/${i}`).join("\n");
  const refused = await page(t, "/api/bulk", form({ urls: eleven, pass: "pw" }));
  assertEquals(refused.res.status, 400);
  assertEquals(passHelp(refused.doc), BULK_PASS_REFUSED);
  const bare = await postBulk(t, { urls: "not a url" });
  assertEquals(passHelp(bare.doc), null);
});

Deno.test("a refused bulk form post shows the lines again with the reason", async () => {
  await using t = await testApp();
  const urls = Array.from({ length: 11 }, (_, i) => `example.com/${i}`).join("\n");
  const { res, doc } = await page(t, "/api/bulk", form({ urls }));
  assertEquals(res.status, 400);
  assertEquals(doc.querySelector('[role="alert"]').textContent, "Max 10 links per request");
  assertEquals(doc.querySelector("#bulk-urls").textContent, urls);
  // The same lines as eleven fields come back as the same lines, none dropped.
  const fields = new URLSearchParams(urls.split("\n").map((url) => ["urls", url]));
  const repeated = await page(t, "/api/bulk", { ...form({}), body: fields });
  assertEquals(repeated.res.status, 400);
  assertEquals(repeated.doc.querySelector("#bulk-urls").textContent, urls);
  const json = await t.request("/api/bulk", form({ urls: "example.com/x" }, "*/*"));
  assertEquals(json.status, 200);
  assertEquals((await json.json())[0].ok, true);
});

Deno.test("the unlock page carries the unlock island, and a refused browser post shows the reason", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://secret.example/x", slug: "locked", pass: "pw" });
  const { doc } = await page(t, "/locked");
  const island = doc.querySelector('[data-island="UnlockForm"]');
  assertEquals(JSON.parse(island.dataset.props), { slug: "locked", error: null });
  const wrong = await page(t, "/api/unlock", form({ slug: "locked", pass: "nope" }));
  assertEquals(wrong.res.status, 403);
  assertEquals(wrong.doc.querySelector('[role="alert"]').textContent, "Wrong password");
  const empty = await page(t, "/api/unlock", form({ slug: "locked", pass: "" }));
  assertEquals(empty.res.status, 400);
  assertEquals(empty.doc.querySelector("input[name=slug]").getAttribute("value"), "locked");
  // Out of attempts: the page as sent keeps its button, which only a script can enable again.
  for (let i = 0; i < 4; i++) await page(t, "/api/unlock", form({ slug: "locked", pass: "nope" }));
  const spent = await page(t, "/api/unlock", form({ slug: "locked", pass: "nope" }));
  assertEquals(spent.res.status, 429);
  assertStringIncludes(spent.doc.querySelector('[role="alert"]').textContent, "retry in");
  const button = spent.doc.querySelector("button[type=submit]");
  assertEquals(button.hasAttribute("disabled"), false);
  assertEquals(button.textContent, "Unlock");
});

Deno.test("/links lists live links newest first, escaped, never a protected destination", async () => {
  await using t = await testApp();
  await makeHostileLinks(t);
  t.advance(1000);
  await t.json("/api/create", { url: "example.org/last", slug: "newest", note: "the note" });
  // Holding the unlock cookie changes nothing on the page.
  const unlocked = await t.json("/api/unlock", { slug: "locked", pass: "pw" });
  const cookie = (unlocked.headers.get("set-cookie") ?? "").split(";")[0]!;
  const { res, doc, html } = await page(t, "/links", { headers: { Cookie: cookie } });
  assertEquals(res.status, 200);
  assertNotIncludes(html, "secret.example");
  assertNotIncludes(html, HOSTILE_NOTE);
  assertNotIncludes(html, HOSTILE_TITLE);
  assertEquals(doc.querySelectorAll("img").length, 0);
  const rows = [...doc.querySelectorAll(".link-row")];
  assertEquals(
    rows.map((row: Doc) => row.querySelector(".link-slug").textContent),
    ["/newest", "/locked", "/hostile"],
  );
  assertStringIncludes(rows[1].textContent, "Protected");
  assertStringIncludes(rows[1].textContent, "Destination hidden");
  assertEquals(rows[2].querySelector(".link-title").textContent, HOSTILE_TITLE);
  assertEquals(
    rows[2].querySelector(".link-title").tagName,
    "BDI",
    "isolated from what is beside it",
  );
  assertEquals(rows[2].querySelector(".link-note").textContent, HOSTILE_NOTE);
  // The host in the row, the whole address in the tip its hover or focus shows.
  const host = rows[2].querySelector(".host");
  assertEquals(host.textContent, "example.com");
  assertEquals(host.getAttribute("tabindex"), "0");
  const tip = doc.getElementById(host.getAttribute("aria-describedby"));
  assertEquals(tip.textContent, new URL(HOSTILE_URL).href);
  assertEquals(rows[1].querySelector(".host"), null);
  assertEquals(rows[0].querySelector(".row-clicks").textContent, "0 clicks");
  assertStringIncludes(rows[0].querySelector(".row-time").textContent, "7 days left");
  assertEquals(rows[0].querySelector(".time-bar rect.left").getAttribute("width"), "100");
  // Each row: a copy island for its short URL, and a way to its own page.
  const copy = JSON.parse(
    rows[0].querySelector('[data-island="CopyLink"]').getAttribute("data-props"),
  );
  assertEquals(copy.text, "http://sho.rt/newest");
  assertEquals(doc.getElementById(copy.target).textContent, "http://sho.rt/newest");
  assertEquals(rows[0].querySelector('a[href="/links/newest"]').textContent, "Stats");
  const deletes = [...doc.querySelectorAll('form[action="/links/remove"]')];
  assertEquals(deletes.length, 3);
  assertEquals(deletes[0].querySelector("input[name=slug]").getAttribute("value"), "newest");
});

Deno.test("/links says a link in its last day has under a day left", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/ending", slug: "ending" });
  t.advance(6.5 * 86_400_000);
  const { doc } = await page(t, "/links");
  assertStringIncludes(doc.querySelector(".row-time").textContent, "12 hours left");
  assertEquals(doc.querySelector(".time-bar rect.left").getAttribute("width"), "7.1");
});

Deno.test("/links?q= filters by slug, title, destination and note without JavaScript", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "alpha.example/x", slug: "one", title: "Holiday" });
  await t.json("/api/create", { url: "beta.example/y", slug: "two", note: "groceries" });
  await t.json("/api/create", { url: "gamma.example/z", slug: "three", pass: "pw" });
  const slugs = async (q: string) => {
    const { doc } = await page(t, `/links?q=${encodeURIComponent(q)}`);
    return [...doc.querySelectorAll(".link-slug")].map((a: Doc) => a.textContent);
  };
  assertEquals(await slugs("HOLIDAY"), ["/one"]);
  assertEquals(await slugs("beta.example"), ["/two"]);
  assertEquals(await slugs("https://beta.example/Y"), ["/two"], "a destination pasted whole");
  assertEquals(
    await slugs("gamma.example/z"),
    [],
    "a protected link's destination is not searched",
  );
  assertEquals(await slugs("grocer"), ["/two"]);
  assertEquals(await slugs("gamma"), []);
  assertEquals(await slugs("thr"), ["/three"]);
  const { doc } = await page(t, "/links?q=nothing-like-it");
  assertStringIncludes(doc.querySelector("main").textContent, "No link matches “nothing-like-it”");
});

Deno.test("deleting from /links without JavaScript asks first, then removes and says so", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/bye", slug: "bye", title: "Bye" });
  const ask = await page(t, "/links/remove", form({ slug: "bye" }));
  assertEquals(ask.res.status, 200);
  assertStringIncludes(ask.doc.querySelector("h1").textContent, "Delete /bye?");
  const confirm = ask.doc.querySelector('form[action="/links/remove"]');
  assertEquals(confirm.querySelector("input[name=confirm]").getAttribute("value"), "yes");
  assertEquals((await t.request("/bye")).status, 302);
  const done = await t.request("/links/remove", form({ slug: "bye", confirm: "yes" }));
  assertEquals(done.status, 303);
  assertEquals(done.headers.get("location"), "/links?removed=bye");
  assertRedirectPolicy(done);
  assertEquals((await t.request("/bye")).status, 404);
  const after = await page(t, "/links?removed=bye");
  assertEquals(after.doc.querySelector(".notice").textContent, "Deleted /bye");
  // A link crafted to say that a live link is gone says nothing.
  await t.json("/api/create", { url: "example.com/here", slug: "still-here" });
  assertEquals((await page(t, "/links?removed=still-here")).doc.querySelector(".notice"), null);
  const again = await t.request("/links/remove", form({ slug: "bye", confirm: "yes" }));
  assertEquals(again.status, 404);
  assertEquals(again.headers.get("content-type"), "text/html; charset=utf-8");
});

Deno.test("/links pages through every link, 50 a page, newest first, by cursor", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/oldest", slug: "oldest" });
  for (let i = 0; i < 120; i++) {
    t.advance(10);
    const made = await t.json("/api/create", { url: `example.com/${i}`, slug: `link-${i}` }, {
      client: `198.51.100.${i % 100}`,
    });
    assertEquals(made.status, 201);
  }
  const seen: string[] = [];
  let path = "/links";
  const sizes: number[] = [];
  for (let pages = 0; pages < 5; pages++) {
    const { doc } = await page(t, path);
    const slugs = [...doc.querySelectorAll(".link-slug")].map((a: Doc) => a.textContent);
    sizes.push(slugs.length);
    seen.push(...slugs);
    const next = doc.querySelector('.pager a[rel="next"]');
    if (pages > 0) assertEquals(doc.querySelector(".pager a").getAttribute("href"), "/links");
    if (next === null) break;
    path = next.getAttribute("href");
    assert(/^\/links\?cursor=[0-9A-Z]{26}$/.test(path), path);
  }
  assertEquals(sizes, [50, 50, 21]);
  assertEquals(seen, [...Array.from({ length: 120 }, (_, i) => `/link-${119 - i}`), "/oldest"]);
  // The filter pages too, and keeps itself in the pager's links.
  const filtered: string[] = [];
  let next: string | null = "/links?q=LINK";
  while (next !== null) {
    const { doc } = await page(t, next);
    filtered.push(...[...doc.querySelectorAll(".link-slug")].map((a: Doc) => a.textContent));
    next = doc.querySelector('.pager a[rel="next"]')?.getAttribute("href") ?? null;
    if (next !== null) assertStringIncludes(next, "/links?q=LINK&cursor=");
  }
  assertEquals(filtered, seen.slice(0, 120));
  // One page in all: no pager. A cursor that is not one is the first page.
  assertEquals((await page(t, "/links?q=oldest")).doc.querySelector(".pager"), null);
  const odd = await page(t, "/links?cursor=%3Cnot-a-cursor%3E");
  assertEquals(odd.res.status, 200);
  assertEquals(odd.doc.querySelector(".link-slug").textContent, "/link-119");
});

Deno.test("/stats draws the figures it is given as SVG, escaped", async () => {
  await using t = await testApp();
  const stats: Stats = {
    links: 3,
    clicks: 12_345,
    days: Array.from({ length: 7 }, (_, i) => ({
      date: `2026-11-0${i + 1}`,
      links: i === 6 ? 3 : 0,
      clicks: i * 2,
    })),
    top: [{ slug: "hot", shortUrl: "http://sho.rt/hot", title: HOSTILE_TITLE, clicks: 9 }],
    referrers: [{ name: "<script>alert(1)</script>", clicks: 5 }, { name: "direct", clicks: 7 }],
    devices: [{ name: "desktop", clicks: 10 }, { name: "bot", clicks: 4 }],
    countries: [{ name: "DE", clicks: 8 }, { name: "unknown", clicks: 4 }],
  };
  const route = makeStatsRoute(t.deps, { loadStats: () => Promise.resolve(stats) });
  const res = await route.request("/", {}, { remoteAddr: { hostname: "192.0.2.1" } });
  assertEquals(res.status, 200);
  const html = await res.text();
  assertNotIncludes(html, "<script>alert(1)");
  assertNotIncludes(html, HOSTILE_TITLE);
  const doc = parse(html);
  assertStrictMarkup(doc, "/stats");
  const charts = doc.querySelectorAll("svg.chart");
  assertEquals(charts.length, 2);
  assertEquals(charts[0].querySelectorAll("rect.bar").length, 7);
  assertEquals(doc.querySelectorAll(".bar-list").length, 4);
  assertStringIncludes(doc.querySelector(".bar-list").textContent, HOSTILE_TITLE);
  // A top link leads to its own page, not through the short link (which would count).
  assertEquals(doc.querySelector(".bar-list a").getAttribute("href"), "/links/hot");
  // The headline figures come first, before any chart.
  const figures = [...doc.querySelectorAll(".figures .figure")].map((figure: Doc) => [
    figure.querySelector("dt").textContent,
    figure.querySelector("dd").textContent,
  ]);
  assertEquals(figures, [
    ["Live links", "3"],
    ["Clicks", "12,345"],
    ["Clicks today", "12"],
    ["Links made today", "3"],
  ]);
  const order = [...doc.querySelectorAll("main .figures, main svg.chart")];
  assertEquals(order[0].tagName, "DL");
});

Deno.test("/stats shows the store's live links and empty charts before any click", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com" });
  const { res, doc } = await page(t, "/stats");
  assertEquals(res.status, 200);
  assertEquals(doc.querySelector(".figures dd").textContent, "1");
  assertEquals(doc.querySelectorAll("svg.chart").length, 2);
  assertEquals(doc.querySelectorAll(".bar-list").length, 0);
});

Deno.test("/changelog lists every release and /about states the seven-day rule", async () => {
  await using t = await testApp();
  const { doc } = await page(t, "/changelog");
  const headings = [...doc.querySelectorAll("main h2")].map((h: Doc) => h.textContent);
  assertEquals(headings, ["1.1.0 · Links that lapse", "1.0.0 · First release"]);
  const about = (await page(t, "/about")).doc.querySelector("main").textContent;
  assertStringIncludes(about, "seven days");
  assertStringIncludes(about, "What is counted");
});

Deno.test("the 404 page for a free name links to the start page with the slug filled in", async () => {
  await using t = await testApp();
  const { res, doc } = await page(t, "/free-name");
  assertEquals(res.status, 404);
  const claim = [...doc.querySelectorAll("a")].find((a: Doc) => a.textContent === "claim it");
  assertEquals(claim.getAttribute("href"), "/?slug=free-name");
  const home = await page(t, claim.getAttribute("href"));
  assertEquals(home.doc.querySelector("#create-slug").getAttribute("value"), "free-name");
});

Deno.test("the navigation marks the current page", async () => {
  await using t = await testApp();
  for (const path of ["/", "/links", "/stats", "/docs", "/about"]) {
    const { doc } = await page(t, path);
    const current = doc.querySelectorAll('nav a[aria-current="page"]');
    assertEquals(current.length, 1, path);
    assertEquals(current[0].getAttribute("href"), path);
  }
});

Deno.test("only the unlock page lets its form's redirect chain leave the site", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://secret.example/x", slug: "locked", pass: "pw" });
  const directives = (policy: string | null) =>
    Object.fromEntries((policy ?? "").split("; ").map((d) => [d.split(" ")[0], d]));
  const strict = directives(CONTENT_SECURITY_POLICY);
  const unlock = directives(ONWARD_FORM_CONTENT_SECURITY_POLICY);
  assertEquals(strict["form-action"], "form-action 'self'");
  assertEquals(unlock["form-action"], "form-action 'self' http: https:");
  // Every other directive is the strict one.
  assertEquals({ ...unlock, "form-action": strict["form-action"] }, strict);
  const locked = await t.request("/locked", { headers: { Accept: "text/html" } });
  assertEquals(locked.status, 401);
  assertEquals(locked.headers.get("content-security-policy"), ONWARD_FORM_CONTENT_SECURITY_POLICY);
  const wrong = await t.request("/api/unlock", form({ slug: "locked", pass: "nope" }));
  assertEquals(wrong.status, 403);
  assertEquals(wrong.headers.get("content-security-policy"), ONWARD_FORM_CONTENT_SECURITY_POLICY);
  const right = await t.request("/api/unlock", form({ slug: "locked", pass: "pw" }));
  assertEquals(right.status, 303);
  assertEquals(right.headers.get("location"), "/locked");
  assertRedirectPolicy(right);
  for (const path of ["/", "/links", "/no-such-link"]) {
    const res = await t.request(path);
    assertEquals(res.headers.get("content-security-policy"), CONTENT_SECURITY_POLICY, path);
  }
});

Deno.test("a wrong password without JavaScript marks the password field invalid", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://secret.example/x", slug: "locked", pass: "pw" });
  const fresh = await page(t, "/locked");
  assertEquals(fresh.doc.querySelector("#unlock-pass").hasAttribute("aria-invalid"), false);
  assertEquals(fresh.doc.querySelector("title").textContent, "Protected link · lapse");
  const { res, doc } = await page(t, "/api/unlock", form({ slug: "locked", pass: "nope" }));
  assertEquals(res.status, 403);
  const input = doc.querySelector("#unlock-pass");
  assertEquals(input.getAttribute("aria-invalid"), "true");
  assertEquals(input.getAttribute("aria-describedby"), "unlock-error");
  assertEquals(doc.querySelector("#unlock-error").textContent, "Wrong password");
  assertEquals(doc.querySelector("title").textContent, "Error: Protected link · lapse");
});

Deno.test("an unlock form post for an unknown, expired or open link says so without the form", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "https://example.com/open", slug: "open-one" });
  await t.json("/api/create", { url: "https://example.com/x", slug: "short-lived", pass: "pw" });
  t.advance(8 * 24 * 3600 * 1000);
  await t.json("/api/create", { url: "https://example.com/open", slug: "open-two" });
  const cases = [
    { slug: "nonexist", status: 404, heading: "Not found", says: "No live link is called" },
    { slug: "short-lived", status: 404, heading: "Not found", says: "No live link is called" },
    { slug: "open-two", status: 400, heading: "Not protected", says: "has no password" },
  ];
  for (const { slug, status, heading, says } of cases) {
    const { res, doc } = await page(t, "/api/unlock", form({ slug, pass: "anything" }));
    assertEquals(res.status, status, slug);
    assertEquals(res.headers.get("content-security-policy"), CONTENT_SECURITY_POLICY, slug);
    const main = doc.querySelector("main").textContent;
    assertEquals(doc.querySelector("h1").textContent, heading, slug);
    assertStringIncludes(main, says);
    assertStringIncludes(main, `/${slug}`);
    assertNotIncludes(main, "is protected by a password");
    assertEquals(doc.querySelectorAll("form").length, 0, slug);
    assertEquals(doc.querySelectorAll("[data-island]").length, 0, slug);
    assert(doc.querySelector("title").textContent.startsWith("Error: "), slug);
  }
  const badSlugs: [Record<string, string>, string][] = [
    [{ pass: "x" }, "slug is required"],
    [{ slug: "a/b", pass: "x" }, "invalid slug"],
  ];
  for (const [fields, reason] of badSlugs) {
    const bad = await page(t, "/api/unlock", form(fields));
    assertEquals(bad.res.status, 400, reason);
    assertEquals(bad.doc.querySelector("h1").textContent, "No such link", reason);
    assertStringIncludes(bad.doc.querySelector("main").textContent, reason);
    assertEquals(bad.doc.querySelectorAll("form").length, 0, reason);
  }
  const open = await page(t, "/api/unlock", form({ slug: "open-two", pass: "x" }));
  assertEquals(open.doc.querySelector("main a").getAttribute("href"), "/open-two");
  // A missing password on a protected link still gets the form, with the reason.
  await t.json("/api/create", { url: "https://example.com/y", slug: "guarded", pass: "pw" });
  const empty = await page(t, "/api/unlock", form({ slug: "guarded", pass: "" }));
  assertEquals(empty.res.status, 400);
  assertEquals(empty.doc.querySelectorAll("#unlock-pass").length, 1);
});

Deno.test("a refused create form post says Error in the title and ties the reason to its field", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/first", slug: "taken" });
  const fresh = await page(t, "/");
  assertEquals(fresh.doc.querySelector("title").textContent, "Shorten a link · lapse");
  assertEquals(fresh.doc.querySelectorAll("[aria-invalid]").length, 0);
  const cases: { fields: Record<string, string>; status: number; field: string }[] = [
    { fields: { url: "example.com/2", slug: "taken" }, status: 409, field: "slug" },
    { fields: { url: "example.com/2", slug: "stats" }, status: 400, field: "slug" },
    { fields: { url: "example.com/2", slug: "a!" }, status: 400, field: "slug" },
    { fields: { url: "ftp://example.com/2" }, status: 400, field: "url" },
    { fields: { url: "not a url" }, status: 400, field: "url" },
    { fields: { url: "example.com/2", title: "t".repeat(201) }, status: 400, field: "title" },
    { fields: { url: "example.com/2", note: "n".repeat(501) }, status: 400, field: "note" },
  ];
  for (const { fields, status, field } of cases) {
    const { res, doc } = await page(t, "/api/create", form(fields));
    const label = JSON.stringify(fields).slice(0, 60);
    assertEquals(res.status, status, label);
    assertEquals(doc.querySelector("title").textContent, "Error: Shorten a link · lapse", label);
    const error = doc.querySelector("#create-error");
    assertEquals(error.getAttribute("role"), "alert");
    const invalid = [...doc.querySelectorAll('[aria-invalid="true"]')];
    assertEquals(invalid.map((el: Doc) => el.getAttribute("name")), [field], label);
    const describedBy = invalid[0].getAttribute("aria-describedby").split(" ");
    assertEquals(describedBy[0], "create-error", label);
    // Said under its field, once; "More options" open when the field is behind it.
    assertEquals(doc.querySelectorAll("#create-error").length, 1, label);
    assertEquals(error.closest(".field"), invalid[0].closest(".field"), label);
    assertEquals(doc.querySelector("details.more").hasAttribute("open"), field !== "url", label);
  }
  // The slug's own hint stays tied to it beside the error.
  const taken = await page(t, "/api/create", form({ url: "example.com/2", slug: "taken" }));
  assertEquals(
    taken.doc.querySelector("#create-slug").getAttribute("aria-describedby"),
    "create-error create-slug-hint",
  );
  // An error naming no field marks none.
  for (let i = 0; i < 30; i++) await t.json("/api/create", { url: `example.com/${i}` });
  const limited = await page(t, "/api/create", form({ url: "example.com/over" }));
  assertEquals(limited.res.status, 429);
  assertEquals(limited.doc.querySelectorAll("[aria-invalid]").length, 0);
  assertEquals(limited.doc.querySelector("#create-error").closest(".field"), null);
  assertEquals(limited.doc.querySelector("details.more").hasAttribute("open"), false);
  assertEquals(limited.doc.querySelector("title").textContent, "Error: Shorten a link · lapse");
});

Deno.test("the slug hint says the rule, not to leave it empty, beside a slug filled in", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/first", slug: "taken" });
  const empty = await page(t, "/");
  assertEquals(
    empty.doc.querySelector("#create-slug-hint").textContent,
    "Leave it empty for a random name.",
  );
  const refused = await page(t, "/api/create", form({ url: "example.com/2", slug: "taken" }));
  const prefilled = await page(t, "/?slug=free-one");
  for (const { doc } of [refused, prefilled]) {
    const hint = doc.querySelector("#create-slug-hint");
    assertNotIncludes(hint.textContent, "Leave it empty");
    assertStringIncludes(hint.textContent, "3 to 48 letters");
    assertEquals(hint.dataset.state, "unchecked");
  }
});

Deno.test("a refused bulk form post says Error in the title and marks the lines invalid", async () => {
  await using t = await testApp();
  const urls = Array.from({ length: 11 }, (_, i) => `example.com/${i}`).join("\n");
  const { res, doc } = await page(t, "/api/bulk", form({ urls }));
  assertEquals(res.status, 400);
  assertEquals(doc.querySelector("title").textContent, "Error: Shorten a link · lapse");
  const lines = doc.querySelector("#bulk-urls");
  assertEquals(lines.getAttribute("aria-invalid"), "true");
  assertEquals(lines.getAttribute("aria-describedby"), "bulk-error");
  assertEquals(doc.querySelector("#bulk-error").textContent, "Max 10 links per request");
  assertEquals(doc.querySelector("#bulk-pass").hasAttribute("aria-invalid"), false);
  // The create form, not the one refused, stays unmarked.
  assertEquals(doc.querySelector("#create-url").hasAttribute("aria-invalid"), false);
  const ok = await postBulk(t, { urls: "example.com/1" });
  assertEquals(ok.doc.querySelector("title").textContent, "Shorten a link · lapse");
});

Deno.test("deleting from a filtered /links without JavaScript comes back to the filter", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/bye", slug: "bye", title: "Holiday" });
  await t.json("/api/create", { url: "example.com/stay", slug: "stay", title: "Holiday too" });
  await t.json("/api/create", { url: "example.com/other", slug: "other" });
  const list = await page(t, "/links?q=holiday");
  const deletes = [...list.doc.querySelectorAll('form[action="/links/remove"]')];
  assertEquals(deletes.length, 2);
  for (const form of deletes) {
    assertEquals(form.querySelector("input[name=q]").getAttribute("value"), "holiday");
  }
  const ask = await page(t, "/links/remove", form({ slug: "bye", q: "holiday" }));
  assertEquals(ask.res.status, 200);
  const confirm = ask.doc.querySelector('form[action="/links/remove"]');
  assertEquals(confirm.querySelector("input[name=q]").getAttribute("value"), "holiday");
  assertEquals(ask.doc.querySelector("a.secondary").getAttribute("href"), "/links?q=holiday");
  const done = await t.request(
    "/links/remove",
    form({ slug: "bye", confirm: "yes", q: "holiday" }),
  );
  assertEquals(done.status, 303);
  assertEquals(done.headers.get("location"), "/links?q=holiday&removed=bye");
  const after = await page(t, done.headers.get("location")!);
  assertEquals(after.doc.querySelector(".notice").textContent, "Deleted /bye");
  assertEquals(after.doc.querySelector("#links-q").getAttribute("value"), "holiday");
  assertEquals(
    [...after.doc.querySelectorAll(".link-slug")].map((a: Doc) => a.textContent),
    ["/stay"],
  );
  // Without a filter, nothing changes.
  const plain = await page(t, "/links");
  assertEquals(plain.doc.querySelectorAll("input[name=q][type=hidden]").length, 0);
});

Deno.test("a page's path with a trailing slash redirects to the path without it", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/x", slug: "some-link" });
  for (const path of ["/docs", "/links", "/about", "/stats", "/changelog"]) {
    const res = await t.request(`${path}/`);
    assertEquals(res.status, 301, path);
    assertEquals(res.headers.get("location"), path);
    assertRedirectPolicy(res);
    const head = await t.request(`${path}/`, { method: "HEAD" });
    assertEquals(head.status, 301, `HEAD ${path}`);
  }
  const query = await t.request("/links/?q=x%20y");
  assertEquals(query.status, 301);
  assertEquals(query.headers.get("location"), "/links?q=x%20y");
  // Not the API.
  const api = await t.request("/api/links/");
  assertEquals(api.status, 404);
  assertEquals(api.headers.get("content-type"), "application/json");
});

Deno.test("a short link with a trailing slash redirects to the link's own path", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/x", slug: "some-link" });
  const sent: [string, string][] = [
    ["/some-link/", "/some-link"],
    ["/free-name/?a=1", "/free-name?a=1"],
  ];
  for (const [path, location] of sent) {
    const res = await t.request(path);
    assertEquals([res.status, res.headers.get("location")], [301, location], path);
    assertRedirectPolicy(res);
    const head = await t.request(path, { method: "HEAD" });
    assertEquals(head.status, 301, `HEAD ${path}`);
  }
  assertEquals((await t.request("/some-link")).status, 302);
  // Nothing that could not be a slug is sent anywhere: a reserved word, a bad name, two slashes.
  for (
    const path of ["/api/", "/health/", "/dot.ted/", "/-dash/", "/some-link//", "/some-link/x/"]
  ) {
    const res = await t.request(path);
    assertEquals(res.status, 404, path);
    await res.body?.cancel();
  }
});

/** Every redirect the service answers carries the short link's two headers. */
function assertRedirectPolicy(res: Response): void {
  assertEquals(res.headers.get("referrer-policy"), "unsafe-url");
  assertEquals(res.headers.get("cache-control"), "no-store");
}

Deno.test("More options opens by itself when a refused post brings a value back into it", async () => {
  await using t = await testApp();
  const closed = await page(t, "/");
  assertEquals(closed.doc.querySelector("details.more").hasAttribute("open"), false);
  // The destination is refused; the title typed with it comes back, so its box is open.
  const titled = await page(t, "/api/create", form({ url: "not a url", title: "Kept" }));
  assertEquals(titled.res.status, 400);
  assertEquals(titled.doc.querySelector("details.more").hasAttribute("open"), true);
  assertEquals(titled.doc.querySelector("#create-title").getAttribute("value"), "Kept");
  // A password is never sent back, but the box opens to say it must be typed again.
  const locked = await page(t, "/api/create", form({ url: "not a url", pass: "pw" }));
  assertEquals(locked.doc.querySelector("details.more").hasAttribute("open"), true);
  const bare = await page(t, "/api/create", form({ url: "not a url" }));
  assertEquals(bare.doc.querySelector("details.more").hasAttribute("open"), false);
  // A name to claim from the 404 page is a value in it too.
  const claim = await page(t, "/?slug=claim-me");
  assertEquals(claim.doc.querySelector("details.more").hasAttribute("open"), true);
  // The destination and its button come first in the form.
  const first = [
    ...closed.doc.querySelectorAll(
      'form[action="/api/create"] input, form[action="/api/create"] button',
    ),
  ]
    .slice(0, 2).map((el: Doc) => el.getAttribute("name") ?? el.textContent);
  assertEquals(first, ["url", "Shorten"]);
});

Deno.test("/links/<slug> shows a live link's figures, and the 404 page for any other", async () => {
  await using t = await testApp();
  await makeHostileLinks(t);
  t.advance(3_600_000);
  for (const agent of [MOBILE_UA, DESKTOP_UA]) {
    const res = await t.request("/hostile", {
      headers: { "User-Agent": agent, Referer: "https://news.example/a" },
    });
    assertEquals(res.status, 302);
    await res.body?.cancel();
  }
  await t.deps.clicks.flush();
  const { res, doc, html } = await page(t, "/links/hostile");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertNotIncludes(html, HOSTILE_TITLE);
  assertNotIncludes(html, "<script>alert(1)");
  assertEquals(doc.querySelector("h1").textContent, "/hostile");
  assertEquals(doc.querySelector(".short-url a").getAttribute("href"), "http://sho.rt/hostile");
  assertEquals(doc.querySelector("img.qr").getAttribute("src"), "/api/qr?slug=hostile");
  assertEquals(doc.querySelector(".expiry strong").textContent, "6 days 23 hours");
  const facts = doc.querySelector(".facts").textContent;
  assertStringIncludes(facts, new URL(HOSTILE_URL).href);
  assertStringIncludes(facts, HOSTILE_NOTE);
  assertStringIncludes(facts, "2026-11-02 12:00 UTC"); // made
  const figures = [...doc.querySelectorAll(".figures dd")].map((dd: Doc) => dd.textContent);
  assertEquals(figures, ["2", "2"]);
  assertEquals(doc.querySelectorAll("svg.chart rect.bar").length, 7);
  const lists = [...doc.querySelectorAll(".bar-list")].map((list: Doc) => list.textContent);
  assertEquals(lists.length, 3);
  assertStringIncludes(lists[0], "news.example");
  assertStringIncludes(lists[1], "mobile");
  assert(doc.querySelector('[data-island="CopyLink"]'), "a copy button");
  assertEquals(doc.querySelector('nav a[aria-current="page"]').getAttribute("href"), "/links");
  // A protected link: its figures, never its destination, whatever cookies are held.
  const unlocked = await t.json("/api/unlock", { slug: "locked", pass: "pw" });
  const cookie = (unlocked.headers.get("set-cookie") ?? "").split(";")[0]!;
  const locked = await page(t, "/links/locked", { headers: { Cookie: cookie } });
  assertEquals(locked.res.status, 200);
  assertNotIncludes(locked.html, "secret.example");
  assertStringIncludes(locked.doc.querySelector(".facts").textContent, "Hidden");
  assertStringIncludes(locked.doc.querySelector("h1").textContent, "Protected");
  // Unknown, malformed and expired: the 404 page, which says where an expired link pointed.
  const unknown = await page(t, "/links/no-such-link");
  assertEquals(unknown.res.status, 404);
  assertStringIncludes(unknown.doc.querySelector("main").textContent, "The name is free");
  assertEquals((await page(t, "/links/%3Cb%3E")).res.status, 404);
  t.advance(7 * 86_400_000);
  const expired = await page(t, "/links/hostile");
  assertEquals(expired.res.status, 404);
  assertStringIncludes(expired.doc.querySelector("main").textContent, "expired on");
  assertStringIncludes(expired.doc.querySelector("main").textContent, new URL(HOSTILE_URL).href);
  const expiredLocked = await page(t, "/links/locked");
  assertNotIncludes(expiredLocked.html, "secret.example");
});
