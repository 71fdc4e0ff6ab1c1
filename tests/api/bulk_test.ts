import { assert, assertEquals } from "../_helpers/assert.ts";
import { LINK_VIEW_FIELDS, testApp } from "../_helpers/app.ts";

Deno.test("POST /api/bulk makes one link per row, in order, failures undoing nothing", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/first", slug: "held" });
  const res = await t.json("/api/bulk", {
    urls: [
      "example.com/a",
      { url: "https://example.com/b", slug: "bee", title: "B", note: "n" },
      "ftp://example.com/c",
      { url: "example.com/d", slug: "held" },
      { url: "example.com/e", slug: "docs" },
      42,
      { slug: "nourl" },
      { url: "example.com/f", slug: "bee" },
      null,
    ],
  });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  const body = await res.json();
  assertEquals(body.length, 9);
  assertEquals(body.map((entry: { ok: boolean }) => entry.ok), [
    true,
    true,
    false,
    false,
    false,
    false,
    false,
    false,
    false,
  ]);
  assertEquals(body[0].link.url, "https://example.com/a");
  assertEquals(body[0].link.expiresInDays, 7);
  assertEquals(Object.keys(body[1].link).sort(), LINK_VIEW_FIELDS);
  assertEquals(body[1].link.slug, "bee");
  assertEquals(body[1].link.title, "B");
  assertEquals(body[2], {
    ok: false,
    url: "ftp://example.com/c",
    error: "url must use http or https",
  });
  assertEquals(body[3], { ok: false, url: "example.com/d", error: 'slug "held" is already taken' });
  assertEquals(body[4], { ok: false, url: "example.com/e", error: 'slug "docs" is reserved' });
  assertEquals(body[5], { ok: false, url: 42, error: "url must be a string" });
  // A row without a url says so: its url is null, never left out.
  assertEquals(body[6], { ok: false, url: null, error: "url is required" });
  assertEquals(body[7], { ok: false, url: "example.com/f", error: 'slug "bee" is already taken' });
  assertEquals(body[8], { ok: false, url: null, error: "url is required" }, "a null row");
  const listed = await (await t.request("/api/links")).json();
  assertEquals(listed.length, 3);
  assertEquals((await t.request("/bee")).headers.get("location"), "https://example.com/b");
  assertEquals((await t.request("/held")).headers.get("location"), "https://example.com/first");
});

Deno.test("POST /api/bulk refuses 11 rows and creates nothing", async () => {
  await using t = await testApp();
  const urls = Array.from({ length: 11 }, (_, i) => `example.com/${i}`);
  const res = await t.json("/api/bulk", { urls });
  assertEquals(res.status, 400);
  assertEquals(await res.json(), { error: "max 10 links per request" });
  assertEquals(await (await t.request("/api/links")).json(), []);
  const ten = await t.json("/api/bulk", { urls: urls.slice(0, 10) });
  assertEquals(ten.status, 200);
  assertEquals((await ten.json()).filter((entry: { ok: boolean }) => entry.ok).length, 10);
});

Deno.test("POST /api/bulk reads a form's urls given more than once as more rows, none dropped", async () => {
  await using t = await testApp();
  const post = (body: string | FormData) =>
    t.request("/api/bulk", {
      method: "POST",
      headers: typeof body === "string"
        ? { "Content-Type": "application/x-www-form-urlencoded" }
        : {},
      body,
    });
  const fields = (count: number) =>
    Array.from({ length: count }, (_, i) => `urls=r${i + 1}.example`).join("&");
  const eleven = await post(fields(11));
  assertEquals(eleven.status, 400);
  assertEquals(await eleven.json(), { error: "max 10 links per request" });
  assertEquals(await (await t.request("/api/links")).json(), []);
  // Each value's lines, in order: a textarea's two lines and then a third field.
  const rows = await post("urls=one.example%0Atwo.example&urls=three.example");
  assertEquals(rows.status, 200);
  assertEquals(
    (await rows.json()).map((row: { link: { url: string } }) => row.link.url),
    ["https://one.example", "https://two.example", "https://three.example"],
  );
  const multipart = new FormData();
  for (const url of ["m1.example", "m2.example"]) multipart.append("urls", url);
  const made = await (await post(multipart)).json();
  assertEquals(made.map((row: { ok: boolean }) => row.ok), [true, true]);
  // Its password given twice is refused, not resolved to one of them.
  const pass = await post("urls=p.example&pass=secret&pass=");
  assertEquals(pass.status, 400);
  assertEquals(await pass.json(), { error: "pass must be one string, not a list" });
});

Deno.test("POST /api/bulk answers 400 for a malformed request", async () => {
  await using t = await testApp();
  const cases: [unknown, string][] = [
    [{}, "urls is required"],
    [{ urls: "example.com" }, "urls must be an array"],
    [{ urls: [] }, "urls must not be empty"],
    [{ urls: ["example.com"], pass: 5 }, "pass must be a string"],
    [[], "request body must be a JSON object"],
  ];
  for (const [body, error] of cases) {
    const res = await t.json("/api/bulk", body);
    assertEquals(res.status, 400, JSON.stringify(body));
    assertEquals(await res.json(), { error });
  }
  const bad = await t.json("/api/bulk", "{nope", { client: "198.51.100.2" });
  assertEquals(bad.status, 400);
  assertEquals(await bad.json(), { error: "request body is not valid JSON" });
  const lone = await t.json("/api/bulk", { urls: ["example.com"], pass: "\ud800" }, {
    client: "198.51.100.3",
  });
  assertEquals(lone.status, 400);
  assertEquals(await lone.json(), {
    error: "pass must be well-formed Unicode text (no unpaired surrogates)",
  });
  assertEquals(await (await t.request("/api/links")).json(), []);
  const row = await t.json("/api/bulk", { urls: [{ url: "example.com/a", title: "x\ud800" }] }, {
    client: "198.51.100.4",
  });
  assertEquals(await row.json(), [{
    ok: false,
    url: "example.com/a",
    error: "title must be well-formed Unicode text (no unpaired surrogates)",
  }]);
});

Deno.test("POST /api/bulk protects every row with pass, hashed once for all of them", async () => {
  await using t = await testApp();
  const res = await t.json("/api/bulk", { urls: ["example.com/x", "example.com/y"], pass: "pw" });
  const body = await res.json();
  assert(
    body.every((entry: { ok: boolean; link: { protected: boolean; url: unknown } }) =>
      entry.ok && entry.link.protected && entry.link.url === null
    ),
  );
  const hashes = [];
  for (const entry of body) {
    const stored = await t.store.kv.get<{ passHash: string }>(["links", entry.link.slug]);
    hashes.push(stored.value?.passHash);
  }
  // One hash (~80 ms of a core) for the request, not one per row.
  assertEquals(hashes[0], hashes[1]);
  assert(hashes[0]?.startsWith("pbkdf2-sha256$600000$"));
  assertEquals((await t.request(`/${body[0].link.slug}`)).status, 401);
});

Deno.test("POST /api/bulk is limited to 5 a minute per client", async () => {
  await using t = await testApp();
  for (let i = 0; i < 5; i++) {
    assertEquals((await t.json("/api/bulk", { urls: ["example.com"] })).status, 200);
  }
  const refused = await t.json("/api/bulk", { urls: ["example.com"] });
  assertEquals(refused.status, 429);
  assertEquals(refused.headers.get("ratelimit-limit"), "5");
  assert(Number(refused.headers.get("retry-after")) > 0);
});

Deno.test("OPTIONS /api/bulk answers the preflight", async () => {
  await using t = await testApp();
  const res = await t.request("/api/bulk", {
    method: "OPTIONS",
    headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "POST" },
  });
  assertEquals(res.status, 204);
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  assertEquals(res.headers.get("access-control-allow-methods"), "POST, OPTIONS");
  assertEquals(res.headers.get("access-control-allow-headers"), "Content-Type");
});

Deno.test("a JSON body nested deeper than 32 levels is refused with 400, not echoed into a 500", async () => {
  await using t = await testApp();
  const deep = (depth: number) => `{"urls":${"[".repeat(depth)}${"]".repeat(depth)}}`;
  const cases: [string, number][] = [["/api/bulk", 10_000], ["/api/bulk", 32], ["/api/create", 40]];
  for (const [path, depth] of cases) {
    const res = await t.json(path, deep(depth), { client: `192.0.2.${depth}` });
    assertEquals(res.status, 400, `${path} ${depth}`);
    assertEquals(res.headers.get("content-type"), "application/json");
    assertEquals(await res.json(), {
      error: "request body must be nested at most 32 levels deep",
    });
  }
  const fine = await t.json("/api/bulk", { urls: [{ url: "example.com/a" }, ["nested", ["x"]]] });
  assertEquals(fine.status, 200);
  assertEquals((await fine.json()).map((entry: { ok: boolean }) => entry.ok), [true, false]);
});
