import { assert, assertEquals, assertStringIncludes } from "../_helpers/assert.ts";
import { mountSmallDisk } from "../_helpers/disk.ts";
import { call, clientNumber, startService, tempDir } from "../../testing/server.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";
import { pause } from "../../lib/pause.ts";

const STORE_DOWN = "storage is unavailable, try again shortly";

// The fault is real: the store's file sits on a disk of its own, which the test fills up. That
// needs mounting a tmpfs (root, as on CI); elsewhere the in-process fault tests cover the same.
const probe = await mountSmallDisk(1);
await probe?.[Symbol.asyncDispose]();
if (probe === null) {
  console.warn("disk_faults_test: cannot mount a tmpfs here, disk-full test ignored");
}

Deno.test({
  name:
    "a full disk under the real service gives 503 JSON on writes, reads go on, and all recovers when space is back",
  ignore: probe === null,
  async fn() {
    await using disk = await mountSmallDisk(16);
    assert(disk);
    await using service = await startService({
      env: { KV_PATH: `${disk.path}/links.kv`, TRUST_PROXY: "1" },
    });
    let n = 0;
    const create = (slug?: string) =>
      call(service.origin, "/api/create", {
        json: { url: `example.com/disk/${n}`, slug },
        client: clientNumber(n++),
      });
    const made = new Map<string, string>();
    const keep = (answer: Awaited<ReturnType<typeof create>>) => {
      const link = answer.json<{ slug: string; url: string }>();
      made.set(link.slug, link.url);
    };
    for (let i = 0; i < 20; i++) keep(await create(i === 0 ? "counted" : undefined));
    const visit = () => call(service.origin, "/counted", { headers: { "User-Agent": DESKTOP_UA } });
    for (let i = 0; i < 3; i++) assertEquals((await visit()).status, 302);
    const clicks = async () =>
      (await call(service.origin, "/api/unshorten?slug=counted")).json<{ clicks: number }>().clicks;

    const filled = await disk.fill();
    let refused = 0;
    for (let attempt = 0; attempt < 100 && refused < 3; attempt++) {
      const answer = await create();
      if (answer.status === 201) keep(answer); // SQLite may still have room in its log
      else {
        assertEquals(answer.status, 503, answer.text);
        assertEquals(answer.headers.get("content-type"), "application/json");
        assertEquals(answer.json(), { error: STORE_DOWN });
        refused++;
      }
    }
    assertEquals(refused, 3, "writes never failed on a full disk");
    for (let i = 0; i < 4; i++) assertEquals((await visit()).status, 302);
    const check = await call(service.origin, "/api/check?slug=counted");
    assertEquals([check.status, check.json<{ exists: boolean }>().exists], [200, true]);
    assertEquals((await call(service.origin, "/api/version")).status, 200);
    assertEquals((await call(service.origin, "/api/changelog")).status, 200);
    const health = await call(service.origin, "/api/health");
    assertEquals(health.status, 503);
    assertEquals(health.json<{ store: string }>().store, "down");
    // Reads go on: their rate-limit windows, which the store cannot write, are counted in
    // memory meanwhile.
    const page = await call(service.origin, "/links", { client: clientNumber(9_999) });
    assertEquals(page.status, 200, page.text.slice(0, 200));
    const linkStats = await call(service.origin, "/api/stats?slug=counted", {
      client: clientNumber(9_998),
    });
    assertEquals(linkStats.status, 200, linkStats.text);
    assertEquals(linkStats.json<{ slug: string }>().slug, "counted");
    assertEquals(linkStats.headers.get("ratelimit-remaining"), "59");
    const list = await call(service.origin, "/api/links", { client: clientNumber(9_997) });
    assertEquals(list.status, 200, list.text.slice(0, 200));

    await disk.free();
    const freedAt = performance.now();
    let recovered = false;
    while (!recovered && performance.now() - freedAt < 3_000) {
      const answer = await create();
      recovered = answer.status === 201;
      if (recovered) keep(answer);
      else await pause(50);
    }
    assert(recovered, "writes did not recover within 3 s of freeing the disk");
    const recoveredMs = performance.now() - freedAt;
    assertEquals((await call(service.origin, "/api/health")).status, 200);
    let counted = await clicks();
    for (let waited = 0; counted < 7 && waited < 3_000; waited += 100) {
      await pause(100);
      counted = await clicks();
    }
    assertEquals(counted, 7, "the visits made while the disk was full were not all written");
    const listed = (await call(service.origin, "/api/links")).json<
      { slug: string; url: string }[]
    >();
    assertEquals(new Map(listed.map((link) => [link.slug, link.url])), made);
    const stats = (await call(service.origin, "/api/stats")).json<{ links: number }>();
    assertEquals(stats.links, made.size);
    assertEquals((await service.stop()).code, 0);
    assertStringIncludes(service.output(), "database or disk is full");
    // A flush fault (when the full disk refused the clicks too) is said as it starts and as it
    // ends, not each second it lasts.
    const said = service.output().split("\n").filter((line) => line.includes('"msg":"click flush'))
      .map((line) => JSON.parse(line).msg);
    said.forEach((msg, i) =>
      assertEquals(msg, i % 2 === 0 ? "click flush failed, will retry" : "click flush works again")
    );
    assertEquals(said.length % 2, 0, said.join(", "));
    console.log(
      `disk full (${(filled / 2 ** 20).toFixed(1)} MiB of filler): ${refused} writes refused ` +
        `with 503, reads and redirects went on; writes back ${recoveredMs.toFixed(0)} ms after ` +
        `freeing; ${made.size} links acknowledged, 0 lost; 7 of 7 clicks written`,
    );
  },
});

Deno.test("a store whose folder vanishes under the real service answers 503, not lost 201s, and recovers when a store is back", async () => {
  await using dir = await tempDir("lapse-vanish-");
  const folder = `${dir.path}/store`;
  await using service = await startService({
    env: { KV_PATH: `${folder}/links.kv`, TRUST_PROXY: "1" },
  });
  let n = 0;
  const create = () =>
    call(service.origin, "/api/create", {
      json: { url: `example.com/vanish/${n}` },
      client: clientNumber(n++),
    });
  assertEquals((await create()).status, 201);
  await Deno.remove(folder, { recursive: true });
  let refused = false;
  for (let attempt = 0; attempt < 60 && !refused; attempt++) {
    const answer = await create();
    if (answer.status === 503) {
      assertEquals(answer.json(), { error: STORE_DOWN });
      refused = true;
    } else {
      assertEquals(answer.status, 201); // the second before the file's loss is noticed
      await pause(50);
    }
  }
  assert(refused, "creates went on answering 201 with the store's file gone");
  assertEquals((await call(service.origin, "/api/version")).status, 200);
  assertEquals((await call(service.origin, "/api/changelog")).status, 200);
  assertEquals((await call(service.origin, "/api/health")).status, 503);
  // A store is put back at the path: the service opens it and works again.
  await Deno.mkdir(folder);
  (await Deno.openKv(`${folder}/links.kv`)).close();
  let made: string | null = null;
  for (let attempt = 0; attempt < 60 && made === null; attempt++) {
    const answer = await create();
    if (answer.status === 201) made = answer.json<{ slug: string }>().slug;
    else await pause(50);
  }
  assert(made !== null, "the service did not recover when a store was back");
  assertEquals((await call(service.origin, `/${made}`)).status, 302);
  assertEquals((await call(service.origin, "/api/health")).status, 200);
});

Deno.test("a store that cannot be opened at start leaves the service up: version answers, the rest 503 until it opens", async () => {
  await using dir = await tempDir("lapse-unopened-");
  const path = `${dir.path}/links.kv`;
  await Deno.mkdir(path); // a folder where the store's file should be: it cannot be opened
  await using service = await startService({ env: { KV_PATH: path } });
  assertEquals((await call(service.origin, "/api/version")).status, 200);
  assertEquals((await call(service.origin, "/api/changelog")).status, 200);
  assertEquals((await call(service.origin, "/api/health")).status, 503);
  const refused = await call(service.origin, "/api/create", { json: { url: "example.com/x" } });
  assertEquals([refused.status, refused.json()], [503, { error: STORE_DOWN }]);
  // The way is cleared: the store opens, and protected links unlock (their key is in it).
  await Deno.remove(path);
  let made = refused;
  for (let attempt = 0; attempt < 60 && made.status !== 201; attempt++) {
    await pause(50);
    made = await call(service.origin, "/api/create", {
      json: { url: "example.com/later", slug: "later", pass: "pw" },
    });
  }
  assertEquals(made.status, 201);
  const unlocked = await call(service.origin, "/api/unlock", {
    json: { slug: "later", pass: "pw" },
  });
  assertEquals(unlocked.status, 200);
  assertEquals((await call(service.origin, "/api/health")).status, 200);
  assertEquals((await service.stop()).code, 0);
  assertStringIncludes(service.output(), "KV_PATH: the store cannot be opened");
});
