import { assert, assertEquals } from "../_helpers/assert.ts";
import { LINK_VIEW_FIELDS, testApp } from "../_helpers/app.ts";

Deno.test("POST /api/create answers 201 with the new link", async () => {
  await using t = await testApp();
  const res = await t.json("/api/create", { url: "example.com/page", title: "Hi" });
  assertEquals(res.status, 201);
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  assertEquals(res.headers.get("content-type"), "application/json");
  const body = await res.json();
  assertEquals(Object.keys(body).sort(), LINK_VIEW_FIELDS);
  assertEquals(body.url, "https://example.com/page");
  assertEquals(body.title, "Hi");
  assertEquals(body.protected, false);
  assertEquals(body.expiresInDays, 7);
  assertEquals(body.expiresAt, new Date(t.now() + 7 * 86_400_000).toISOString());
  assert(/^[A-Za-z0-9]{7}$/.test(body.slug));
  assertEquals(body.shortUrl, `http://sho.rt/${body.slug}`);
  assertEquals(res.headers.get("location"), body.shortUrl);
  const follow = await t.request(`/${body.slug}`);
  assertEquals(follow.status, 302);
  assertEquals(follow.headers.get("location"), "https://example.com/page");
});

Deno.test("POST /api/create takes a slug that is empty, null or spaces alone as none given", async () => {
  await using t = await testApp();
  for (const slug of ["", null, "   "]) {
    const res = await t.json("/api/create", { url: "example.com/blank", slug });
    assertEquals(res.status, 201, JSON.stringify(slug));
    assert(/^[A-Za-z0-9]{7}$/.test((await res.json()).slug), "a generated slug");
  }
  // A password of spaces is a password: only the slug is trimmed.
  const spaced = await t.json("/api/create", { url: "example.com/spaced", pass: "   " });
  assertEquals((await spaced.json()).protected, true);
});

Deno.test("POST /api/create takes a custom slug, title and note", async () => {
  await using t = await testApp();
  const res = await t.json("/api/create", {
    url: "https://example.com",
    slug: " My-Link_1 ",
    title: "  Title  ",
    note: "a note",
    extra: "ignored",
  });
  assertEquals(res.status, 201);
  const body = await res.json();
  assertEquals(body.slug, "My-Link_1");
  assertEquals(body.title, "Title");
  const [entry] = await (await t.request("/api/links")).json();
  assertEquals(entry.note, "a note");
});

Deno.test("POST /api/create accepts a plain form post", async () => {
  await using t = await testApp();
  const res = await t.request("/api/create", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ url: "example.com/form", slug: "", title: "", pass: "" }),
  });
  assertEquals(res.status, 201);
  const body = await res.json();
  assertEquals(body.url, "https://example.com/form");
  assertEquals(body.protected, false);
});

Deno.test("POST /api/create refuses a form field given twice rather than keep one of them", async () => {
  await using t = await testApp();
  const post = (body: string, type = "application/x-www-form-urlencoded") =>
    t.request("/api/create", { method: "POST", headers: { "Content-Type": type }, body });
  // The last of two passwords was an empty one: kept, it would have made an open link.
  const twice = await post("url=example.com%2Fpp&pass=secret&pass=");
  assertEquals(twice.status, 400);
  assertEquals(await twice.json(), { error: "pass must be one string, not a list" });
  const slugs = new FormData();
  slugs.append("url", "example.com/multi");
  slugs.append("slug", "first-name");
  slugs.append("slug", "second-name");
  const multipart = await t.request("/api/create", { method: "POST", body: slugs });
  assertEquals(multipart.status, 400);
  assertEquals(await multipart.json(), { error: "slug must be one string, not a list" });
  assertEquals(await (await t.request("/api/links")).json(), []);
  // A JSON list where one string belongs reads the same.
  const listed = await t.json("/api/create", { url: ["example.com/a", "example.com/b"] });
  assertEquals(await listed.json(), { error: "url must be one string, not a list" });
  // An unknown field given twice is ignored, as any unknown field is.
  const unknown = await post("url=example.com%2Fok&extra=1&extra=2");
  assertEquals(unknown.status, 201);
});

Deno.test("POST /api/create answers 409 for a taken slug and keeps the first link", async () => {
  await using t = await testApp();
  assertEquals((await t.json("/api/create", { url: "example.com/1", slug: "taken" })).status, 201);
  const res = await t.json("/api/create", { url: "example.com/2", slug: "taken" });
  assertEquals(res.status, 409);
  assertEquals(await res.json(), { error: 'slug "taken" is already taken' });
  assertEquals((await t.request("/taken")).headers.get("location"), "https://example.com/1");
});

Deno.test("POST /api/create answers 400 for a reserved slug in any case", async () => {
  await using t = await testApp();
  for (const slug of ["docs", "About", "CHANGELOG", "api", "links", "stats"]) {
    const res = await t.json("/api/create", { url: "example.com", slug });
    assertEquals(res.status, 400, slug);
    assertEquals((await res.json()).error, `slug "${slug}" is reserved`);
  }
});

Deno.test("POST /api/create answers 400 with a sentence for every kind of bad input", async () => {
  await using t = await testApp();
  const cases: [unknown, string][] = [
    [{}, "url is required"],
    [{ url: 42 }, "url must be a string"],
    [{ url: null }, "url is required"],
    [{ url: ["example.com"] }, "url must be one string, not a list"],
    [{ url: { href: "x" } }, "url must be a string"],
    [{ url: "" }, "url must not be empty"],
    [{ url: "   " }, "url must not be empty"],
    [{ url: "ftp://example.com" }, "url must use http or https"],
    [{ url: "javascript:alert(1)" }, "url must use http or https"],
    [
      { url: "https://-bad-.com" },
      "url must have a valid host name: letters, digits and inner hyphens",
    ],
    [
      { url: "http://localhost:9000/x" },
      "url must have a host name with a domain, or an IP address",
    ],
    [{ url: "https://sho.rt/abc" }, "url must not point back to this service"],
    [{ url: `https://example.com/${"a".repeat(5000)}` }, "url must be at most 4096 characters"],
    [
      { url: "example.com", slug: "ab" },
      "slug must be 3 to 48 letters, digits, '-' or '_', starting with a letter or digit",
    ],
    [
      { url: "example.com", slug: "-abc" },
      "slug must be 3 to 48 letters, digits, '-' or '_', starting with a letter or digit",
    ],
    [
      { url: "example.com", slug: "a/b/c" },
      "slug must be 3 to 48 letters, digits, '-' or '_', starting with a letter or digit",
    ],
    [
      { url: "example.com", slug: "../../etc" },
      "slug must be 3 to 48 letters, digits, '-' or '_', starting with a letter or digit",
    ],
    [{ url: "example.com", slug: 12345 }, "slug must be a string"],
    [{ url: "example.com", title: "t".repeat(201) }, "title must be at most 200 characters"],
    // Characters are code points: an emoji is one.
    [{ url: "example.com", title: "🔗".repeat(201) }, "title must be at most 200 characters"],
    [{ url: "example.com", title: 5 }, "title must be a string"],
    [{ url: "example.com", note: "n".repeat(501) }, "note must be at most 500 characters"],
    [{ url: "example.com", pass: "p".repeat(129) }, "pass must be at most 128 characters"],
    [{ url: "example.com", pass: true }, "pass must be a string"],
    [[], "request body must be a JSON object"],
    ["example.com", "request body must be a JSON object"],
    [null, "request body must be a JSON object"],
    ["{bad json", "request body is not valid JSON"],
    ['{"url": "example.com",}', "request body is not valid JSON"],
  ];
  for (const [body, error] of cases) {
    const res = await t.json(
      "/api/create",
      typeof body === "string" && body.startsWith("{") ? body : JSON.stringify(body),
    );
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), { error }, JSON.stringify(body));
  }
  assertEquals(await (await t.request("/api/links")).json(), []);
  const full = await t.json("/api/create", { url: "example.com", title: "🔗".repeat(200) });
  assertEquals(full.status, 201, "200 emoji fill the 200");
});

Deno.test("POST /api/create refuses text with an unpaired surrogate", async () => {
  await using t = await testApp();
  // A lone surrogate has no UTF-8 form: stored or hashed, it would be U+FFFD, as any other, and
  // two different passwords would unlock the same link.
  for (
    const [field, value] of [
      ["pass", "\ud800\udbff"],
      ["title", "a\udc00"],
      ["note", "\ud83d"],
    ]
  ) {
    const res = await t.json("/api/create", { url: "example.com", [field!]: value });
    assertEquals(res.status, 400, field);
    assertEquals(await res.json(), {
      error: `${field} must be well-formed Unicode text (no unpaired surrogates)`,
    });
  }
  assertEquals(await (await t.request("/api/links")).json(), []);
  const paired = await t.json("/api/create", { url: "example.com", title: "\ud83d\udd17" });
  assertEquals(paired.status, 201, "a surrogate pair is a character like any other");
});

Deno.test("POST /api/create refuses a body over 64 KiB with 413", async () => {
  await using t = await testApp();
  const big = JSON.stringify({ url: "example.com", note: "x".repeat(70 * 1024) });
  const res = await t.json("/api/create", big);
  assertEquals(res.status, 413);
  assertEquals(await res.json(), { error: "request body must be at most 64 KiB" });
  const declared = await t.request("/api/create", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Content-Length": String(big.length) },
    body: big,
  });
  assertEquals(declared.status, 413);
});

Deno.test("POST /api/create makes a protected link without revealing its destination", async () => {
  await using t = await testApp();
  const res = await t.json("/api/create", {
    url: "example.com/secret",
    slug: "locked",
    pass: "pw",
  });
  assertEquals(res.status, 201);
  const body = await res.json();
  assertEquals(body.protected, true);
  assertEquals(body.url, null);
  assert(!JSON.stringify(body).includes("example.com/secret"));
});

Deno.test("POST /api/create is limited to 30 a minute per client, with the headers", async () => {
  await using t = await testApp();
  for (let i = 0; i < 30; i++) {
    const res = await t.json("/api/create", { url: `example.com/${i}` });
    assertEquals(res.status, 201);
    assertEquals(res.headers.get("ratelimit-limit"), "30");
    assertEquals(res.headers.get("ratelimit-remaining"), String(29 - i));
  }
  const refused = await t.json("/api/create", { url: "example.com/over" });
  assertEquals(refused.status, 429);
  assertEquals(refused.headers.get("retry-after"), "60");
  assertEquals(refused.headers.get("ratelimit-limit"), "30");
  assertEquals(refused.headers.get("ratelimit-remaining"), "0");
  assertEquals(refused.headers.get("ratelimit-reset"), "60");
  assertEquals(await refused.json(), {
    error: "rate limit of 30 requests per minute reached, retry in 60 s",
  });
  // Another client is not affected; the window ends after a minute.
  assertEquals(
    (await t.json("/api/create", { url: "example.com/b" }, { client: "198.51.100.7" })).status,
    201,
  );
  t.advance(60_000);
  assertEquals((await t.json("/api/create", { url: "example.com/later" })).status, 201);
  assertEquals((await (await t.request("/api/links")).json()).length, 32);
});

Deno.test("TRUST_PROXY=1 keys rate limits by the first X-Forwarded-For entry", async () => {
  await using t = await testApp({ env: { TRUST_PROXY: "1" } });
  const from = (address: string, socket: string) =>
    t.json("/api/create", { url: "example.com" }, {
      client: socket,
      headers: { "X-Forwarded-For": `${address}, 10.0.0.1` },
    });
  for (let i = 0; i < 30; i++) assertEquals((await from("203.0.113.9", `10.1.0.${i}`)).status, 201);
  assertEquals((await from("203.0.113.9", "10.2.0.1")).status, 429);
  assertEquals((await from("203.0.113.10", "10.2.0.1")).status, 201);
});

Deno.test("TRUST_PROXY=1 believes a forwarded entry only when it is an IP address", async () => {
  await using t = await testApp({ env: { TRUST_PROXY: "1" } });
  const from = (forwarded: string) =>
    t.json("/api/create", { url: "example.com" }, {
      client: "10.3.0.1",
      headers: { "X-Forwarded-For": forwarded },
    });
  // Not addresses: each is kept under the peer's address, never as a key of its own.
  const junk = [
    "1".repeat(3000),
    "x".repeat(5000),
    `fe80::1%${"a".repeat(3000)}`,
    "fe80::1%eth0",
    "unknown",
    "203.0.113.9:443",
  ];
  for (const [i, forwarded] of junk.entries()) {
    const res = await from(`${forwarded}, 10.0.0.1`);
    assertEquals(res.status, 201, `entry ${i}`);
    assertEquals(res.headers.get("ratelimit-remaining"), String(29 - i));
  }
  // One address however it is written.
  assertEquals((await from("2001:DB8::0:1")).headers.get("ratelimit-remaining"), "29");
  assertEquals((await from("[2001:db8::1]")).headers.get("ratelimit-remaining"), "28");
  assertEquals((await from("203.0.113.5")).headers.get("ratelimit-remaining"), "29");
  assertEquals((await from("::ffff:203.0.113.5")).headers.get("ratelimit-remaining"), "28");
  assertEquals((await from("3405803781")).headers.get("ratelimit-remaining"), "27");
});

Deno.test("without TRUST_PROXY, X-Forwarded-For is ignored", async () => {
  await using t = await testApp();
  for (let i = 0; i < 30; i++) {
    const res = await t.json("/api/create", { url: "example.com" }, {
      headers: { "X-Forwarded-For": `203.0.113.${i}` },
    });
    assertEquals(res.status, 201);
  }
  const res = await t.json("/api/create", { url: "example.com" }, {
    headers: { "X-Forwarded-For": "203.0.113.200" },
  });
  assertEquals(res.status, 429);
});

Deno.test("a destination pointing back to this service is refused, by its host, its listening address or loopback on its port", async () => {
  await using t = await testApp({ env: { BASE_URL: "http://localhost:8301", PORT: "8301" } });
  for (
    const url of [
      "http://127.0.0.1:8301/hello",
      "http://localhost:8301/hello",
      "localhost:8301",
      "http://[::1]:8301/",
    ]
  ) {
    const refused = await t.json("/api/create", { url });
    assertEquals(refused.status, 400, url);
    assertEquals(await refused.json(), { error: "url must not point back to this service" }, url);
  }
  assertEquals((await t.json("/api/create", { url: "http://127.0.0.1:9999/" })).status, 201);
  // The port picked when the service listens is the one judged.
  t.deps.listening = { hostname: "0.0.0.0", port: 40123 };
  assertEquals((await t.json("/api/create", { url: "http://127.0.0.1:40123/" })).status, 400);
});
