import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";

// The bound the service keeps while a flush of many distinct visitors runs (docs/api.md).
const MOST_MS = 150;

// Each visitor has its own User-Agent and address: classifying them is the flush's largest work,
// done in slices between which requests are answered (lib/clicks/classify.ts `learn`).
Deno.test("6,000 visitors with unique 400-character User-Agents never stall the service", async () => {
  await using t = await testApp();
  const made = await t.json("/api/create", { url: "https://example.com/many", slug: "many" });
  assertEquals(made.status, 201);
  await t.request("/many", { method: "HEAD" }); // read once: cached, no click
  const link = t.store.cache.get("many")!.record;
  // The click buffer is started as the service starts: its country database is loaded then.
  t.deps.clicks.start(60_000);
  await t.deps.clicks.flush();
  await using server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request, info) => t.app.fetch(request, info),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const answers: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      const res = await fetch(`${origin}/api/version`);
      await res.body?.cancel();
      assertEquals(res.status, 200);
      answers.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (let i = 0; i < 6_000; i++) {
    const userAgent = `${DESKTOP_UA} visitor/${i} ${"x".repeat(400)}`.slice(0, 400);
    const client = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    t.deps.clicks.recordVisit(link, userAgent, "", client, "");
  }
  assertEquals(t.deps.clicks.pending, 6_000);
  await t.deps.clicks.flush();
  await new Promise((resolve) => setTimeout(resolve, 50));
  polling = false;
  await poller;
  await t.deps.clicks.stop();
  assertEquals((await (await t.request("/api/unshorten?slug=many")).json()).clicks, 6_000);
  assert(answers.length >= 5, `${answers.length} answers polled`);
  const slowest = Math.max(...answers);
  assert(slowest <= MOST_MS, `/api/version took ${slowest.toFixed(1)} ms at worst`);
});
