import { assert, assertEquals } from "../_helpers/assert.ts";
import { call, clientNumber, inParallel, startService, tempDir } from "../../testing/server.ts";
import { until } from "../_helpers/wait.ts";

// Each request carries its own X-Forwarded-For, so per-client limits count only where meant to.
const env = (path: string) => ({ KV_PATH: `${path}/links.kv`, TRUST_PROXY: "1" });

Deno.test("200 concurrent creates of one custom slug over HTTP give one 201 and 199 409s", async () => {
  await using dir = await tempDir("lapse-race-");
  await using service = await startService({ env: env(dir.path) });
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      call(service.origin, "/api/create", {
        json: { url: `example.com/contender/${i}`, slug: "contested" },
        client: clientNumber(i),
      })),
  );
  const ms = performance.now() - started;
  const statuses = answers.map((answer) => answer.status);
  assertEquals(statuses.filter((status) => status === 201).length, 1, String(statuses));
  assertEquals(statuses.filter((status) => status === 409).length, 199, String(statuses));
  const winner = answers.find((answer) => answer.status === 201)!.json<{ url: string }>().url;
  const redirect = await call(service.origin, "/contested");
  assertEquals([redirect.status, redirect.headers.get("location")], [302, winner]);
  console.log(`one slug, 200 contenders: 1 won, 199 refused, in ${ms.toFixed(0)} ms`);
});

Deno.test("200 concurrent random creates give 200 distinct live links, and list, export and stats agree", async () => {
  await using dir = await tempDir("lapse-race-");
  await using service = await startService({ env: env(dir.path) });
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      call(service.origin, "/api/create", {
        json: { url: `example.com/random/${i}` },
        client: clientNumber(i),
      })),
  );
  const ms = performance.now() - started;
  assertEquals(answers.map((answer) => answer.status), new Array(200).fill(201));
  const made = new Map(answers.map((answer) => {
    const link = answer.json<{ slug: string; url: string }>();
    return [link.slug, link.url];
  }));
  assertEquals(made.size, 200);
  const list = await call(service.origin, "/api/links");
  const listed = list.json<{ slug: string; url: string }[]>();
  assertEquals(new Map(listed.map((link) => [link.slug, link.url])), made);
  const exported = await call(service.origin, "/api/export");
  assertEquals(exported.text.split("\n").filter(Boolean).length, 200);
  const stats = await call(service.origin, "/api/stats");
  assertEquals(stats.json<{ links: number }>().links, 200);
  const redirects = await inParallel(200, 16, async (i) => {
    const [slug, url] = [...made][i]!;
    const answer = await call(service.origin, `/${slug}`, { method: "HEAD" });
    return answer.status === 302 && answer.headers.get("location") === url;
  });
  assertEquals(redirects.filter(Boolean).length, 200);
  console.log(`200 concurrent creates: 200 distinct, indexes agree; ${ms.toFixed(0)} ms`);
});

Deno.test("a redirect sent after a remove's 200 arrived is never a redirect, even of a cached link", async () => {
  await using dir = await tempDir("lapse-race-");
  await using service = await startService({ env: env(dir.path) });
  const ROUNDS = 20;
  let fired = 0;
  let checked = 0;
  const late: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const slug = `racing-${round}`;
    const made = await call(service.origin, "/api/create", {
      json: { url: `example.com/racing/${round}`, slug },
      client: clientNumber(round),
    });
    assertEquals(made.status, 201);
    for (let i = 0; i < 2; i++) assertEquals((await call(service.origin, `/${slug}`)).status, 302);
    let removedAt = Infinity;
    let stop = false;
    const seen: { sentAt: number; status: number }[] = [];
    const visitors = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const answer = await call(service.origin, `/${slug}`);
        seen.push({ sentAt: answer.sentAt, status: answer.status });
      }
    });
    // Visits under way, and the link cached.
    assert(await until(() => seen.length >= 4), "no visits were answered");
    const removed = await call(service.origin, `/api/remove?slug=${slug}`, { method: "DELETE" });
    removedAt = removed.doneAt;
    assertEquals(removed.status, 200);
    // Visits sent after the remove's 200, as many as there are visitors, answered.
    await until(() => seen.filter(({ sentAt }) => sentAt > removedAt).length >= 4);
    stop = true;
    await Promise.all(visitors);
    fired += seen.length;
    for (const { sentAt, status } of seen) {
      assert(status === 302 || status === 404, `unexpected ${status}`);
      if (sentAt <= removedAt) continue;
      checked++;
      if (status !== 404) {
        late.push(`${slug}: ${status} ${(sentAt - removedAt).toFixed(1)} ms after`);
      }
    }
  }
  console.log(
    `remove vs redirect: ${ROUNDS} rounds, ${fired} redirects fired, ${checked} sent after a ` +
      `remove's 200, ${late.length} of them redirected`,
  );
  assertEquals(late, []);
  assert(checked >= ROUNDS * 4, `only ${checked} redirects were sent after a removal`);
});

Deno.test("20 parallel bulk requests from one client over HTTP: exactly 5 succeed", async () => {
  await using dir = await tempDir("lapse-race-");
  await using service = await startService({ env: env(dir.path) });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      call(service.origin, "/api/bulk", {
        json: { urls: [`example.com/bulk/${i}`] },
        client: "2001:db8::b01c",
      })),
  );
  const statuses = answers.map((answer) => answer.status);
  assertEquals(statuses.filter((status) => status === 200).length, 5, String(statuses));
  assertEquals(statuses.filter((status) => status === 429).length, 15, String(statuses));
  for (const answer of answers.filter((answer) => answer.status === 429)) {
    assert(Number(answer.headers.get("retry-after")) > 0);
    assert(answer.json<{ error: string }>().error.includes("rate limit of 5 requests per minute"));
  }
  const links = await call(service.origin, "/api/links");
  assertEquals(links.json<unknown[]>().length, 5);
});
