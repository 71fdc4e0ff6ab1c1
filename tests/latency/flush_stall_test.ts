import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { until } from "../_helpers/wait.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";

// The bound the service keeps while a flush of many distinct visitors runs (docs/api.md).
const MOST_MS = 150;

// Each visitor has its own User-Agent and address, sent as requests to the redirect: each visit
// is classified on its own request (a new User-Agent parsed there, once), and the flush only sums
// counts; nothing classifies the 6,000 at once (lib/clicks/classify.ts, buffer.ts).
Deno.test("6,000 visitors with unique 400-character User-Agents never stall the service", async () => {
  await using t = await testApp({ env: { TRUST_PROXY: "1" } });
  const made = await t.json("/api/create", { url: "https://example.com/many", slug: "many" });
  assertEquals(made.status, 201);
  await t.request("/many", { method: "HEAD" }); // read once: cached, no click
  const link = t.linkCache.get("many")!.record;
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
  assert(await until(() => answers.length > 0), "the poller had no answer");
  let next = 0;
  const visitor = async () => {
    for (let i = next++; i < 6_000; i = next++) {
      const userAgent = `${DESKTOP_UA} visitor/${i} ${"x".repeat(400)}`.slice(0, 400);
      // Public addresses, one a visitor, so each has a country to find.
      const client = `81.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const res = await fetch(`${origin}/${link.slug}`, {
        headers: { "user-agent": userAgent, "x-forwarded-for": client },
        redirect: "manual",
      });
      await res.body?.cancel();
      assertEquals(res.status, 302);
    }
  };
  await Promise.all(Array.from({ length: 8 }, visitor));
  assertEquals(t.deps.clicks.pending, 6_000);
  await t.deps.clicks.flush();
  // A poll sent after the flush, answered.
  const polled = answers.length;
  await until(() => answers.length > polled + 1);
  polling = false;
  await poller;
  await t.deps.clicks.stop();
  assertEquals((await (await t.request("/api/unshorten?slug=many")).json()).clicks, 6_000);
  assert(answers.length >= 5, `${answers.length} answers polled`);
  const slowest = Math.max(...answers);
  assert(slowest <= MOST_MS, `/api/version took ${slowest.toFixed(1)} ms at worst`);
});
