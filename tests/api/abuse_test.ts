import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { hashing } from "../../lib/passwords/mod.ts";

Deno.test("400 requests of one client sent together cost the store about two commits each, within 2 s", async () => {
  let writes = 0;
  await using t = await testApp({
    faults: { commits: 0, down: false, onWrite: () => writes++ },
  });
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 400 }, () => t.request("/api/stats", undefined, "2001:db8:1:2::3")),
  );
  const took = performance.now() - started;
  const statuses = answers.map((res) => res.status);
  assertEquals(statuses.filter((status) => status === 200).length, 60, String(statuses));
  assertEquals(statuses.filter((status) => status === 429).length, 340);
  const refused = answers.find((res) => res.status === 429)!;
  assertEquals(refused.headers.get("content-type"), "application/json");
  assert(Number(refused.headers.get("retry-after")) > 0);
  assert(typeof (await refused.json()).error === "string");
  await Promise.all(answers.map((res) => res.bodyUsed ? null : res.arrayBuffer()));
  console.log(`400 requests: ${writes} store writes, ${Math.round(took)} ms`);
  assert(writes <= 2 * 400, `${writes} store writes`);
  assert(took < 2_000, `${Math.round(took)} ms`);
});

/**
 * Takes every place of the hashing queue, running and waiting, until the result is disposed:
 * one place for each of as many clients, so none holds more than its share.
 */
function fillHashing(): AsyncDisposable {
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const jobs = Array.from(
    { length: hashing.concurrency + hashing.capacity },
    (_, i) => hashing.run(() => gate, { client: `203.0.113.${i}` }),
  );
  return {
    async [Symbol.asyncDispose]() {
      release();
      await Promise.all(jobs);
    },
  };
}

async function assertBusy(res: Response): Promise<void> {
  assertEquals(res.status, 503);
  assertEquals(res.headers.get("content-type"), "application/json");
  assertEquals(res.headers.get("retry-after"), "1");
  assertEquals(await res.json(), { error: "password hashing is busy, retry in 1 s" });
}

Deno.test("a protected create past the hashing queue answers 503 with Retry-After, and makes nothing", async () => {
  await using t = await testApp();
  {
    await using _full = fillHashing();
    await assertBusy(
      await t.json("/api/create", { url: "example.com/q", pass: "pw", slug: "queued" }),
    );
    // What needs no hash is not held up.
    assertEquals((await t.json("/api/create", { url: "example.com/open" })).status, 201);
  }
  assertEquals((await t.request("/api/check?slug=queued").then((res) => res.json())).exists, false);
  assertEquals((await t.json("/api/create", { url: "example.com/q", pass: "pw" })).status, 201);
});

Deno.test("a protected bulk request past the hashing queue is refused whole, before any link is made", async () => {
  await using t = await testApp();
  const urls = Array.from({ length: 10 }, (_, i) => `example.com/bulk/${i}`);
  {
    await using _full = fillHashing();
    await assertBusy(await t.json("/api/bulk", { urls, pass: "pw" }));
  }
  assertEquals((await (await t.request("/api/links")).json()).length, 0);
  const made = await t.json("/api/bulk", { urls, pass: "pw" });
  assertEquals(made.status, 200);
  const rows: { ok: boolean; link: { protected: boolean } }[] = await made.json();
  assertEquals(rows.filter((row) => row.ok && row.link.protected).length, 10);
});

Deno.test("an unlock past the hashing queue answers 503 and costs the client no try", async () => {
  await using t = await testApp();
  assertEquals(
    (await t.json("/api/create", { url: "example.com/l", slug: "locked", pass: "pw" })).status,
    201,
  );
  {
    await using _full = fillHashing();
    for (let i = 0; i < 5; i++) {
      await assertBusy(await t.json("/api/unlock", { slug: "locked", pass: "x" }));
    }
  }
  t.advance(60_000); // past the unlock rate limit's minute, not the guesses' 10
  for (let i = 0; i < 5; i++) {
    assertEquals((await t.json("/api/unlock", { slug: "locked", pass: "x" })).status, 403);
  }
  assertEquals((await t.json("/api/unlock", { slug: "locked", pass: "pw" })).status, 429);
});

Deno.test("one client holding the whole hashing queue keeps no stranger's create or unlock out", async () => {
  await using t = await testApp();
  assertEquals(
    (await t.json("/api/create", { url: "example.com/l", slug: "locked", pass: "pw" })).status,
    201,
  );
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const held = Array.from(
    { length: hashing.concurrency + hashing.capacity },
    () =>
      hashing.run(() => gate, { client: "2001:db8:1::/64" }).then(() => "done", () => "refused"),
  );
  const created = t.json("/api/create", { url: "example.com/q", pass: "pw" }, {
    client: "198.51.100.9",
  });
  const unlocked = t.json("/api/unlock", { slug: "locked", pass: "pw" }, {
    client: "2001:db8:2::1",
  });
  // Each stranger took a place the holder was waiting in; neither waits behind the rest of it.
  for (let turn = 0; turn < 10_000 && hashing.waitingOf("2001:db8:1::/64") > 62; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  assertEquals([hashing.waiting, hashing.waitingOf("2001:db8:1::/64")], [64, 62]);
  release();
  assertEquals((await created).status, 201);
  assertEquals((await unlocked).status, 200);
  const outcomes = await Promise.all(held);
  assertEquals(outcomes.filter((outcome) => outcome === "refused").length, 2);
});
