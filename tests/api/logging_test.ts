import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import type { LogLine } from "../../lib/log/mod.ts";

/** A fresh request id: this process's random prefix and a counter. */
const FRESH_ID = /^[0-9a-f]{8}-[0-9a-z]+$/;

async function loggedApp(env: Record<string, string> = {}) {
  const lines: LogLine[] = [];
  const t = await testApp({ log: (line) => lines.push(line), env });
  return Object.assign(t, { lines });
}

Deno.test("every request is logged as one JSON line with its route, status, time and id", async () => {
  await using t = await loggedApp();
  const res = await t.request("/api/check?slug=abc");
  await res.body?.cancel();
  assertEquals(t.lines.length, 1);
  const line = t.lines[0]!;
  assertEquals(Object.keys(line), [
    "time",
    "level",
    "msg",
    "method",
    "route",
    "path",
    "status",
    "durationMs",
    "requestId",
  ]);
  assertEquals([line.level, line.msg, line.method], ["info", "request", "GET"]);
  assertEquals([line.route, line.path, line.status], ["/api/check", "/api/check", 200]);
  assert(typeof line.durationMs === "number" && line.durationMs >= 0);
  assert(FRESH_ID.test(String(line.requestId)));
  assertEquals(res.headers.get("x-request-id"), line.requestId);
  assertEquals(JSON.parse(JSON.stringify(line)), line);
});

Deno.test("the redirect and unmatched paths are logged under their route pattern", async () => {
  await using t = await loggedApp({ LOG_REDIRECTS: "1" });
  await t.json("/api/create", { url: "example.com", slug: "hello" });
  await (await t.request("/hello")).body?.cancel();
  await (await t.request("/a/b")).body?.cancel();
  const [, redirect, nested] = t.lines;
  assertEquals([redirect!.route, redirect!.path, redirect!.status], ["/:slug", "/hello", 302]);
  assertEquals([nested!.route, nested!.status], ["/*", 404]);
});

Deno.test("a redirect is not access-logged by default; its errors and other routes are", async () => {
  await using t = await loggedApp();
  await t.json("/api/create", { url: "example.com", slug: "hello" });
  await (await t.request("/hello")).body?.cancel(); // the route
  await (await t.request("/hello")).body?.cancel(); // the cached link
  await (await t.request("/nope")).body?.cancel();
  assertEquals(t.lines.map((line) => [line.route, line.status]), [
    ["/api/create", 201],
    ["/:slug", 404],
  ]);
});

Deno.test("a safe incoming X-Request-Id is kept; anything else is replaced", async () => {
  await using t = await loggedApp();
  const kept = await t.request("/api/version", { headers: { "X-Request-Id": "edge-42_a.B" } });
  assertEquals(kept.headers.get("x-request-id"), "edge-42_a.B");
  assertEquals(t.lines[0]!.requestId, "edge-42_a.B");
  for (const unsafe of ["has space", "x".repeat(65), "<script>", "a\u00e9"]) {
    const res = await t.request("/api/version", { headers: { "X-Request-Id": unsafe } });
    assert(FRESH_ID.test(res.headers.get("x-request-id") ?? ""), unsafe);
  }
  const ids = await Promise.all(
    Array.from(
      { length: 50 },
      async () => (await t.request("/api/version")).headers.get("x-request-id"),
    ),
  );
  assertEquals(new Set(ids).size, 50, "fresh ids are never repeated");
  const preflight = await t.request("/api/create", { method: "OPTIONS" });
  assertEquals(preflight.status, 204);
  assert(FRESH_ID.test(preflight.headers.get("x-request-id") ?? ""));
});

Deno.test("an unexpected error is logged once with its request id and answered 500", async () => {
  await using t = await loggedApp();
  t.app.get("/boom/now", () => {
    throw new Error("kaboom");
  });
  const res = await t.request("/boom/now");
  assertEquals(res.status, 500);
  await res.body?.cancel();
  const errors = t.lines.filter((line) => line.level === "error");
  assertEquals(errors.length, 1);
  assertEquals(errors[0]!.msg, "unexpected error");
  assertEquals(errors[0]!.requestId, res.headers.get("x-request-id"));
  assertEquals((errors[0]!.error as { message: string }).message, "kaboom");
  assertEquals(t.lines.filter((line) => line.msg === "request").length, 1);
});

Deno.test("a store failure is logged once with its request id and answered 503", async () => {
  await using t = await loggedApp();
  t.store.kv.close();
  const res = await t.request("/api/check?slug=abc");
  assertEquals(res.status, 503);
  await res.body?.cancel();
  const errors = t.lines.filter((line) => line.level === "error");
  assertEquals(errors.length, 1);
  assertEquals(errors[0]!.msg, "store unavailable");
  assertEquals(errors[0]!.path, "/api/check");
  assertEquals(errors[0]!.requestId, res.headers.get("x-request-id"));
});
