import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import type { LogLine } from "../../lib/log/mod.ts";

Deno.test("GET /api/health answers ok with the store and the version, never cached", async () => {
  await using t = await testApp();
  const res = await t.request("/api/health");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(await res.json(), { ok: true, store: "ok", version: "1.1.0" });
});

Deno.test("GET /api/health is not rate limited", async () => {
  await using t = await testApp();
  for (let i = 0; i < 80; i++) {
    const res = await t.request("/api/health");
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("ratelimit-limit"), null);
    await res.body?.cancel();
  }
});

Deno.test("GET /api/health answers 503 at once when the store is down, and logs it once", async () => {
  const lines: LogLine[] = [];
  await using t = await testApp({ log: (line) => lines.push(line) });
  t.store.kv.close();
  const started = performance.now();
  const res = await t.request("/api/health");
  assert(performance.now() - started < 2000);
  assertEquals(res.status, 503);
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(await res.json(), {
    ok: false,
    store: "down",
    error: "storage is unavailable, try again shortly",
  });
  const failures = lines.filter((line) => line.level === "error");
  assertEquals(failures.length, 1);
  assertEquals(failures[0]!.msg, "health check failed");
  assertEquals(failures[0]!.requestId, res.headers.get("x-request-id"));
});
