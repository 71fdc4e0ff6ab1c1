import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";

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
