import {
  assert,
  assertEquals,
  assertNotIncludes,
  assertStringIncludes,
} from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import { retryAfterOf } from "../../islands/UnlockForm.tsx";
import { linkKey } from "../../lib/kv/keys.ts";
import { hashPassword } from "../../lib/passwords/mod.ts";

const SECRET_URL = "https://secret.example/hidden-path";

async function makeLocked(t: TestApp, slug = "locked", pass = "open sesame") {
  const res = await t.json("/api/create", { url: SECRET_URL, slug, pass, title: "Locked" });
  assertEquals(res.status, 201);
  return await res.json();
}

async function unlock(t: TestApp, slug: string, pass: string, client?: string) {
  return await t.json("/api/unlock", { slug, pass }, { client });
}

function cookieOf(res: Response): string {
  const header = res.headers.get("set-cookie") ?? "";
  return header.split(";")[0]!;
}

Deno.test("a locked link answers 401 with the unlock page and never the destination", async () => {
  await using t = await testApp();
  await makeLocked(t);
  const browser = { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } };
  const res = await t.request("/locked", browser);
  assertEquals(res.status, 401);
  assertEquals(res.headers.get("location"), null);
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  assertStringIncludes(html, '<form method="post" action="/api/unlock"');
  assertStringIncludes(html, 'name="pass"');
  assertStringIncludes(html, 'name="slug" value="locked"');
  assertNotIncludes(html, "secret.example");
  const head = await t.request("/locked", { method: "HEAD", ...browser });
  assertEquals(head.status, 401);
  assertEquals(await head.text(), "");
  assertEquals(head.headers.get("location"), null);
});

Deno.test("a locked link answers every client 401 with the unlock page, and never the destination", async () => {
  await using t = await testApp();
  await makeLocked(t);
  for (const accept of [undefined, "*/*", "application/json"]) {
    const res = await t.request("/locked", { headers: accept ? { Accept: accept } : {} });
    assertEquals(res.status, 401, accept);
    assertEquals(res.headers.get("content-type"), "text/html; charset=utf-8", accept);
    assertEquals(res.headers.get("location"), null);
    const html = await res.text();
    assertStringIncludes(html, '<form method="post" action="/api/unlock"');
    assertNotIncludes(html, "secret.example");
  }
});

Deno.test("POST /api/unlock sets the cookie, and the link then redirects", async () => {
  await using t = await testApp();
  const link = await makeLocked(t);
  const res = await unlock(t, "locked", "open sesame");
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { ok: true, slug: "locked" });
  const setCookie = res.headers.get("set-cookie") ?? "";
  assertStringIncludes(setCookie, "unlock_locked=");
  assertStringIncludes(setCookie, "HttpOnly");
  assertStringIncludes(setCookie, "SameSite=Lax");
  assertStringIncludes(setCookie, "Path=/");
  assertStringIncludes(setCookie, `Max-Age=${7 * 86400}`);
  assertStringIncludes(setCookie, `Expires=${new Date(link.expiresAt).toUTCString()}`);
  assertNotIncludes(setCookie, "Secure");
  assertNotIncludes(setCookie, "open sesame");
  assertNotIncludes(setCookie, "secret.example");
  const follow = await t.request("/locked", { headers: { Cookie: cookieOf(res) } });
  assertEquals(follow.status, 302);
  assertEquals(follow.headers.get("location"), SECRET_URL);
  // HEAD never shows a protected destination, the cookie's holder's included.
  const head = await t.request("/locked", { method: "HEAD", headers: { Cookie: cookieOf(res) } });
  assertEquals([head.status, head.headers.get("location")], [401, null]);
  assertEquals(await head.text(), "");
  const unshorten = await t.request("/api/unshorten?slug=locked", {
    headers: { Cookie: cookieOf(res) },
  });
  assertEquals((await unshorten.json()).url, SECRET_URL);
  // An answer that shows the destination to the cookie's holder is kept by no cache, and
  // compressed by nothing on the way.
  assertEquals(unshorten.headers.get("cache-control"), "no-store, no-transform");
  const listed = await t.request("/api/links", { headers: { Cookie: cookieOf(res) } });
  assertEquals((await listed.json())[0].url, SECRET_URL);
  assertEquals(listed.headers.get("cache-control"), "no-store, no-transform");
});

Deno.test("the unlock cookie is Secure when the service is served over https", async () => {
  await using t = await testApp({ env: { BASE_URL: "https://sho.rt" } });
  await makeLocked(t);
  assertStringIncludes(
    (await unlock(t, "locked", "open sesame")).headers.get("set-cookie") ?? "",
    "Secure",
  );
});

Deno.test("a link stored to live past a cookie's 400 days is unlocked for 399 of them", async () => {
  // Stored when LINK_TTL_SECONDS could be longer than a year.
  await using t = await testApp({ start: Date.now() });
  await makeLocked(t);
  const stored = await t.store.kv.get<Record<string, unknown>>(linkKey("locked"));
  const twoYears = t.now() + 730 * 86_400_000;
  await t.store.kv.set(linkKey("locked"), { ...stored.value, expiresAt: twoYears });
  t.linkCache.clear();
  const res = await unlock(t, "locked", "open sesame");
  assertEquals(res.status, 200);
  assertStringIncludes(res.headers.get("set-cookie") ?? "", `Max-Age=${399 * 86400}`);
  assertEquals((await t.request("/locked", { headers: { Cookie: cookieOf(res) } })).status, 302);
});

Deno.test("POST /api/unlock answers 403, 404 and 400 as the contract says", async () => {
  await using t = await testApp();
  await makeLocked(t);
  await t.json("/api/create", { url: "example.com", slug: "open-link" });
  const wrong = await unlock(t, "locked", "nope");
  assertEquals(wrong.status, 403);
  assertEquals(await wrong.json(), { error: "wrong password" });
  assertEquals(wrong.headers.get("set-cookie"), null);
  const unknown = await unlock(t, "nothing", "x");
  assertEquals(unknown.status, 404);
  assertEquals((await unknown.json()).error, 'no link with slug "nothing"');
  const open = await unlock(t, "open-link", "x");
  assertEquals(open.status, 400);
  assertEquals((await open.json()).error, 'link "open-link" is not protected');
  for (
    const [body, error] of [
      [{ slug: "locked" }, "pass is required"],
      [{ pass: "x" }, "slug is required"],
      [{ slug: "a b", pass: "x" }, "invalid slug"],
      [{ slug: "locked", pass: "" }, "pass must not be empty"],
      [{ slug: 3, pass: "x" }, "slug must be a string"],
      [
        { slug: "locked", pass: "\udc00" },
        "pass must be well-formed Unicode text (no unpaired surrogates)",
      ],
    ] as const
  ) {
    const res = await t.json("/api/unlock", body, { client: "198.51.100.20" });
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(await res.json(), { error });
  }
});

Deno.test("a browser's form post to /api/unlock answers 303 to the link, curl's form JSON", async () => {
  await using t = await testApp();
  await makeLocked(t);
  const post = (accept: string) =>
    t.request("/api/unlock", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: accept },
      body: new URLSearchParams({ slug: "locked", pass: "open sesame" }),
    });
  const res = await post("text/html,application/xhtml+xml");
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), "/locked");
  assertStringIncludes(res.headers.get("set-cookie") ?? "", "unlock_locked=");
  const curl = await post("*/*");
  assertEquals(curl.status, 200);
  assertStringIncludes(curl.headers.get("set-cookie") ?? "", "unlock_locked=");
  assertEquals(await curl.json(), { ok: true, slug: "locked" });
});

Deno.test("a browser form with a wrong password sees the form again with the reason", async () => {
  await using t = await testApp();
  await makeLocked(t);
  const res = await t.request("/api/unlock", {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "text/html,application/xhtml+xml",
    },
    body: new URLSearchParams({ slug: "locked", pass: "wrong" }),
  });
  assertEquals(res.status, 403);
  const html = await res.text();
  assertStringIncludes(html, "wrong password");
  assertStringIncludes(html, 'action="/api/unlock"');
  assertNotIncludes(html, "secret.example");
});

Deno.test("forged, tampered, expired and other links' cookies unlock nothing", async () => {
  await using t = await testApp();
  await makeLocked(t, "locked");
  await makeLocked(t, "other");
  const good = cookieOf(await unlock(t, "locked", "open sesame"));
  const otherCookie = cookieOf(await unlock(t, "other", "open sesame"));
  const token = good.split("=")[1]!;
  const [id, expires, mac] = token.split(".");
  const forged = [
    "unlock_locked=forged",
    `unlock_locked=${id}.${Number(expires) + 86_400_000}.${mac}`,
    `unlock_locked=${id}.${expires}.${mac!.replace(/^./, (c) => (c === "A" ? "B" : "A"))}`,
    `unlock_locked=${otherCookie.split("=")[1]}`,
    otherCookie,
    "unlock_locked=",
  ];
  for (const cookie of forged) {
    const res = await t.request("/locked", { headers: { Cookie: cookie } });
    assertEquals(res.status, 401, cookie);
  }
  // Past the link's deadline the cookie is worthless too (and the link is gone).
  t.advance(7 * 86_400_000);
  assertEquals((await t.request("/locked", { headers: { Cookie: good } })).status, 404);
});

Deno.test("a cookie of a removed link does not unlock a new link of the same name", async () => {
  await using t = await testApp();
  await makeLocked(t, "reused", "first");
  const cookie = cookieOf(await unlock(t, "reused", "first"));
  assertEquals((await t.request("/api/remove?slug=reused", { method: "DELETE" })).status, 200);
  await makeLocked(t, "reused", "second");
  assertEquals((await t.request("/reused", { headers: { Cookie: cookie } })).status, 401);
});

Deno.test("deleting a protected link needs no password", async () => {
  await using t = await testApp();
  await makeLocked(t);
  const res = await t.request("/api/remove?slug=locked", { method: "DELETE" });
  assertEquals(res.status, 200);
  assertEquals(await res.json(), { ok: true, slug: "locked" });
  assertEquals((await t.request("/locked")).status, 404);
});

Deno.test("unlock attempts are limited to 10 a minute per client", async () => {
  await using t = await testApp();
  for (const slug of ["one", "two", "three"]) await makeLocked(t, slug);
  const guesses = [["one", 4], ["two", 4], ["three", 2]] as const;
  for (const [slug, count] of guesses) {
    for (let i = 0; i < count; i++) assertEquals((await unlock(t, slug, `guess${i}`)).status, 403);
  }
  const refused = await unlock(t, "three", "open sesame");
  assertEquals(refused.status, 429);
  assertEquals(refused.headers.get("ratelimit-limit"), "10");
  // The unlock form reads the wait from the sentence, as the header gives it.
  const wait = retryAfterOf((await refused.json()).error);
  assertEquals(wait, Number(refused.headers.get("retry-after")));
  assert(wait > 0);
  assertEquals(retryAfterOf("Wrong password"), 0);
  assertEquals(retryAfterOf(null), 0);
  assertEquals((await unlock(t, "three", "open sesame", "198.51.100.3")).status, 200);
});

Deno.test("a client gets 5 wrong passwords on a link per 10-minute window; others are still heard", async () => {
  await using t = await testApp();
  await makeLocked(t);
  for (let i = 0; i < 5; i++) {
    assertEquals((await unlock(t, "locked", "guess", "198.51.100.7")).status, 403);
  }
  const refused = await unlock(t, "locked", "open sesame", "198.51.100.7");
  assertEquals(refused.status, 429);
  const { error } = await refused.json();
  assertStringIncludes(
    error,
    "too many wrong passwords on this link (at most 5 per 10-minute window); retry in ",
  );
  assert(Number(refused.headers.get("retry-after")) > 0);
  assertEquals(retryAfterOf(error), Number(refused.headers.get("retry-after")));
  // The limit headers describe the limit that refused, not the endpoint's own.
  assertEquals(refused.headers.get("ratelimit-limit"), "5");
  assertEquals(refused.headers.get("ratelimit-remaining"), "0");
  assertEquals(refused.headers.get("ratelimit-reset"), refused.headers.get("retry-after"));
  // Another client is heard: no one client can lock the link's users out.
  assertEquals((await unlock(t, "locked", "open sesame", "203.0.113.99")).status, 200);
  // The addresses of one IPv6 /64 are one client.
  for (let i = 1; i <= 6; i++) {
    const expected = i <= 5 ? 403 : 429;
    assertEquals((await unlock(t, "locked", "guess", `2001:db8:5:5::${i}`)).status, expected);
  }
  // Other links count their own.
  await makeLocked(t, "other", "pw");
  assertEquals((await unlock(t, "other", "pw", "198.51.100.7")).status, 200);
  t.advance(10 * 60_000);
  assertEquals((await unlock(t, "locked", "open sesame", "198.51.100.7")).status, 200);
});

Deno.test("a right password costs no try", async () => {
  await using t = await testApp();
  await makeLocked(t);
  await weakenPassword(t, "locked", "open sesame");
  for (let i = 0; i < 4; i++) await unlock(t, "locked", "guess", "198.51.100.3");
  assertEquals((await unlock(t, "locked", "open sesame", "198.51.100.3")).status, 200);
  assertEquals((await unlock(t, "locked", "open sesame", "198.51.100.3")).status, 200);
  assertEquals((await unlock(t, "locked", "guess", "198.51.100.3")).status, 403); // the fifth
  assertEquals((await unlock(t, "locked", "open sesame", "198.51.100.3")).status, 429);
});

Deno.test("200 wrong passwords from 40 /64s of one /56 refuse no new client its right password", async () => {
  await using t = await testApp();
  await makeLocked(t);
  await weakenPassword(t, "locked", "open sesame"); // 200 checks at full strength take seconds
  const net = (i: number) => `2001:db8:aa:ff${i.toString(16).padStart(2, "0")}`;
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    for (let j = 1; j <= 5; j++) {
      statuses.push((await unlock(t, "locked", "guess", `${net(i)}::${j}`)).status);
    }
  }
  // 26 clients' 5 make the link's 130; the other 14 are heard three times each.
  assertEquals(statuses.filter((status) => status === 403).length, 130 + 14 * 3);
  assertEquals(statuses.filter((status) => status === 429).length, 200 - 172);
  // A new client is heard, from the same /56 or from anywhere else, and the right password opens.
  for (const client of [`${net(40)}::1`, "203.0.113.99", "2001:db8:bb::1"]) {
    const res = await unlock(t, "locked", "open sesame", client);
    assertEquals(res.status, 200, client);
    assert(cookieOf(res).startsWith("unlock_locked="));
  }
  // Past the link's 130, a client is heard three times: three wrong passwords, then no more.
  for (let i = 0; i < 3; i++) {
    assertEquals((await unlock(t, "locked", "guess", "198.51.100.40")).status, 403);
  }
  const held = await unlock(t, "locked", "open sesame", "198.51.100.40");
  assertEquals(held.status, 429);
  assertEquals(held.headers.get("content-type"), "application/json");
  assertEquals(held.headers.get("ratelimit-limit"), "3");
  assert(Number(held.headers.get("retry-after")) > 0);
  assertStringIncludes(
    (await held.json()).error,
    "too many wrong passwords on this link (at most 3 per 10-minute window); retry in ",
  );
  t.advance(10 * 60_000);
  assertEquals((await unlock(t, "locked", "open sesame", "198.51.100.40")).status, 200);
});

Deno.test("past the link's 130 wrong passwords, a person who mistyped twice is still heard", async () => {
  await using t = await testApp();
  await makeLocked(t);
  await weakenPassword(t, "locked", "open sesame");
  // Strangers spend the link's 130 in the window the person is typing in.
  for (let i = 0; i < 26; i++) {
    for (let j = 0; j < 5; j++) await unlock(t, "locked", "guess", `2001:db8:66:${i}::1`);
  }
  assertEquals((await unlock(t, "locked", "typo", "198.51.100.5")).status, 403);
  assertEquals((await unlock(t, "locked", "typo 2", "198.51.100.5")).status, 403);
  const right = await unlock(t, "locked", "open sesame", "198.51.100.5");
  assertEquals(right.status, 200);
  assert(cookieOf(right).startsWith("unlock_locked="));
});

Deno.test("attempts sent together get no more than the client's 5", async () => {
  await using t = await testApp();
  await makeLocked(t);
  await weakenPassword(t, "locked", "open sesame");
  const statuses = await Promise.all(
    Array.from(
      { length: 8 },
      async () => (await unlock(t, "locked", "guess", "203.0.113.8")).status,
    ),
  );
  assertEquals(statuses.filter((status) => status === 403).length, 5);
  assertEquals(statuses.filter((status) => status === 429).length, 3);
});

Deno.test("attempts sent together from new clients are each heard three times, however many", async () => {
  await using t = await testApp();
  await makeLocked(t);
  await weakenPassword(t, "locked", "open sesame");
  // In waves of 50, within what the hashing queue takes at once.
  const together = async (pass: string) => {
    const statuses: number[] = [];
    for (let wave = 0; wave < 200; wave += 50) {
      statuses.push(
        ...await Promise.all(
          Array.from(
            { length: 50 },
            async (_, i) => (await unlock(t, "locked", pass, `10.2.0.${wave + i}`)).status,
          ),
        ),
      );
    }
    return statuses;
  };
  for (let round = 0; round < 3; round++) {
    assertEquals((await together("guess")).filter((status) => status === 403).length, 200);
  }
  // Every one of them has guessed wrong three times past the link's 130: the fourth round is not
  // checked.
  assertEquals((await together("open sesame")).filter((status) => status === 429).length, 200);
  assertEquals((await unlock(t, "locked", "open sesame", "10.3.0.1")).status, 200);
});

Deno.test("a client past its tries does not use up the link's 130 for everyone else", async () => {
  await using t = await testApp(); // the clock starts on a window's edge
  await makeLocked(t);
  await weakenPassword(t, "locked", "open sesame");
  const statuses: number[] = [];
  for (let minute = 0; minute < 9; minute++) {
    for (const client of ["203.0.113.1", "203.0.113.2"]) {
      for (let i = 0; i < 10; i++) {
        statuses.push((await unlock(t, "locked", "guess", client)).status);
      }
    }
    t.advance(60_000);
  }
  assertEquals(statuses.filter((status) => status === 403).length, 10);
  assertEquals(statuses.filter((status) => status === 429).length, 170);
  // 10 wrong passwords counted, not 180: the link is open to a visitor with the password.
  assertEquals((await unlock(t, "locked", "open sesame", "198.51.100.200")).status, 200);
});

/** Gives the link `slug` a hash of `password` with one PBKDF2 round, cheap to check in bulk. */
async function weakenPassword(t: TestApp, slug: string, password: string): Promise<void> {
  const entry = await t.store.kv.get<{ passHash: string }>(linkKey(slug));
  await t.store.kv.set(linkKey(slug), {
    ...entry.value!,
    passHash: await hashPassword(password, { iterations: 1 }),
  });
}

Deno.test("no response reveals a protected destination without its cookie", async () => {
  await using t = await testApp();
  const seen: string[] = [];
  const record = async (res: Response | Promise<Response>) => {
    const response = await res;
    seen.push(`${response.status} ${[...response.headers].join(" ")} ${await response.text()}`);
  };
  await record(t.json("/api/create", { url: SECRET_URL, slug: "locked", pass: "pw", title: "T" }));
  await record(
    t.json("/api/bulk", { urls: [SECRET_URL, { url: SECRET_URL, slug: "bulk-1" }], pass: "pw" }),
  );
  await record(t.json("/api/create", { url: SECRET_URL, slug: "locked", pass: "pw" }));
  await record(t.request("/locked"));
  await record(t.request("/locked", { method: "HEAD" }));
  await record(t.request("/api/links"));
  await record(t.request("/api/export"));
  await record(t.request("/api/export?format=csv"));
  await record(t.request("/api/export?format=json"));
  await record(t.request("/api/unshorten?slug=locked"));
  await record(t.request("/api/unshorten?slug=http://sho.rt/locked"));
  await record(t.request("/api/check?slug=locked"));
  await record(t.json("/api/unlock", { slug: "locked", pass: "wrong" }));
  await record(t.request("/api/stats"));
  await record(t.request("/api/sweep"));
  t.advance(7 * 86_400_000 + 1);
  await record(t.request("/locked"));
  await record(t.request("/locked", { method: "HEAD" }));
  await record(t.request("/api/unshorten?slug=locked"));
  await record(t.request("/api/sweep"));
  await record(t.request("/api/sweep", { method: "DELETE" }));
  await record(t.json("/api/sweep", { confirm: "sweep" }));
  await record(t.request("/locked"));
  assert(seen.length >= 20);
  for (const response of seen) {
    assertNotIncludes(response, "secret.example", `leaked in: ${response.slice(0, 300)}`);
  }
});
