import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { chooseEncoding } from "../../routes/_middleware/compress.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";

/** The body of `res` decoded from its `Content-Encoding`, as text. */
async function decoded(res: Response): Promise<string> {
  const encoding = res.headers.get("content-encoding");
  const format = encoding === "br" ? "brotli" : encoding === "gzip" ? "gzip" : null;
  const body = format === null ? res.body! : res.body!.pipeThrough(new DecompressionStream(format));
  return await new Response(body).text();
}

const GZIP = { "Accept-Encoding": "gzip" };
const BROTLI = { "Accept-Encoding": "gzip, deflate, br" };

Deno.test("pages, JSON and streamed answers over 1 KiB are compressed for a client that takes it", async () => {
  await using t = await testApp();
  for (let i = 0; i < 30; i++) {
    await t.json("/api/create", { url: `example.com/${i}/${"x".repeat(40)}`, slug: `link-${i}` });
  }
  for (const path of ["/docs", "/", "/api/openapi.json", "/api/links", "/api/export", "/stats"]) {
    const plain = await t.request(path);
    const text = await plain.text();
    assert(new TextEncoder().encode(text).byteLength > 1024, `${path} is small`);
    assertEquals(plain.headers.get("content-encoding"), null, path);
    assertEquals(plain.headers.get("vary")?.includes("Accept-Encoding"), true, path);
    for (const [accept, encoding] of [[GZIP, "gzip"], [BROTLI, "br"]] as const) {
      const res = await t.request(path, { headers: accept });
      assertEquals(res.status, 200, path);
      assertEquals(res.headers.get("content-encoding"), encoding, path);
      assertEquals(res.headers.get("content-length"), null, path);
      assert(res.headers.get("vary")?.includes("Accept-Encoding"), path);
      const body = await decoded(res);
      // The export and the list are the same links; the pages carry a per-request nonce.
      if (path.startsWith("/api/")) assertEquals(body, text, path);
      else assertEquals(body.length > 1024, true, path);
    }
  }
  const docs = await t.request("/docs", { headers: BROTLI });
  const wire = (await docs.arrayBuffer()).byteLength;
  const whole = new TextEncoder().encode(await (await t.request("/docs")).text()).byteLength;
  console.log(`/docs: ${whole} bytes as it is, ${wire} with br`);
  assert(wire * 4 < whole, `${wire} of ${whole}`);
});

Deno.test("small answers, the redirect and encoded static files are left as they are", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/small", slug: "small" });
  const small = await t.request("/api/check?slug=small", { headers: BROTLI });
  assertEquals(small.headers.get("content-encoding"), null);
  assertEquals(small.headers.get("content-length"), String((await small.clone().text()).length));
  assertEquals((await small.json()).exists, true);
  for (const _ of [1, 2]) { // the router's redirect, then the cached link's
    const redirect = await t.request("/small", {
      headers: { ...BROTLI, "User-Agent": DESKTOP_UA },
    });
    assertEquals(redirect.status, 302);
    assertEquals(redirect.body, null);
    for (const name of ["content-encoding", "vary", "transfer-encoding"]) {
      assertEquals(redirect.headers.get(name), null, name);
    }
  }
  const css = await t.request("/static/style.css", { headers: BROTLI });
  assertEquals(css.headers.get("content-encoding"), "gzip"); // its own copy, made once
  const refused = await t.request("/docs", { headers: { "Accept-Encoding": "gzip;q=0, br;q=0" } });
  assertEquals(refused.headers.get("content-encoding"), null);
});

Deno.test("HEAD says what GET would about the encoding", async () => {
  await using t = await testApp();
  const get = await t.request("/docs", { headers: GZIP });
  const head = await t.request("/docs", { method: "HEAD", headers: GZIP });
  await get.body?.cancel();
  assertEquals(head.status, 200);
  assertEquals(await head.text(), "");
  for (const name of ["content-encoding", "content-length", "vary", "content-type"]) {
    assertEquals(head.headers.get(name), get.headers.get(name), name);
  }
});

Deno.test("Accept-Encoding picks br, then gzip, honouring q=0 and *", () => {
  assertEquals(chooseEncoding(undefined), null);
  assertEquals(chooseEncoding("identity"), null);
  assertEquals(chooseEncoding("gzip, deflate, br, zstd")?.[0], "br");
  assertEquals(chooseEncoding("gzip")?.[0], "gzip");
  assertEquals(chooseEncoding("br;q=0, gzip;q=0.5")?.[0], "gzip");
  assertEquals(chooseEncoding("*")?.[0], "gzip");
  assertEquals(chooseEncoding("*, gzip;q=0")?.[0], undefined);
  assertEquals(chooseEncoding("BR")?.[0], "br");
});

Deno.test("an answer that may show a destination an unlock cookie revealed is never compressed", async () => {
  await using t = await testApp();
  for (let i = 0; i < 20; i++) {
    // Notes anyone can write, beside the secret in the same answer.
    await t.json("/api/create", { url: `example.com/${i}`, note: `https://secret.example/a${i}` });
  }
  await t.json("/api/create", {
    url: "https://secret.example/abcdef",
    slug: "locked",
    pass: "pw",
  });
  const unlock = await t.json("/api/unlock", { slug: "locked", pass: "pw" });
  const cookie = unlock.headers.get("set-cookie")!.split(";")[0]!;
  for (const path of ["/api/links", "/api/export", "/api/export?format=csv"]) {
    for (const accept of [GZIP, BROTLI]) {
      const revealing = await t.request(path, { headers: { ...accept, Cookie: cookie } });
      assertEquals(revealing.status, 200, path);
      assertEquals(revealing.headers.get("content-encoding"), null, path);
      assertEquals(revealing.headers.get("cache-control"), "no-store, no-transform", path);
      assert((await revealing.text()).includes("https://secret.example/abcdef"), path);
      // Without the cookie (or with a forged one) nothing is revealed, and it is compressed.
      for (const headers of [accept, { ...accept, Cookie: "unlock_locked=forged.token" }]) {
        const res = await t.request(path, { headers });
        assertEquals(res.headers.get("content-encoding"), accept === GZIP ? "gzip" : "br", path);
        assertEquals(res.headers.get("cache-control"), "no-store", path);
        assert(!(await decoded(res)).includes("https://secret.example/abcdef"), path);
      }
    }
  }
  const unshortened = await t.request("/api/unshorten?slug=locked", {
    headers: { ...BROTLI, Cookie: cookie },
  });
  assertEquals(unshortened.headers.get("cache-control"), "no-store, no-transform");
  assertEquals((await unshortened.json()).url, "https://secret.example/abcdef");
});
