import { assert, assertEquals, assertStringIncludes } from "./_helpers/assert.ts";
import { startService } from "../testing/server.ts";

Deno.test("the real service logs each request as a JSON line on stdout and serves health and metrics", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lapse-ops-" });
  try {
    await using service = await startService({ env: { KV_PATH: `${dir}/links.kv` } });
    const health = await fetch(`${service.origin}/api/health`, {
      headers: { "X-Request-Id": "probe-1" },
    });
    assertEquals(health.status, 200);
    assertEquals(health.headers.get("x-request-id"), "probe-1");
    assertEquals((await health.json()).store, "ok");
    const metrics = await fetch(`${service.origin}/metrics`);
    assertEquals(metrics.status, 200);
    assertStringIncludes(
      await metrics.text(),
      'lapse_http_requests_total{route="/api/health",method="GET",status="200"} 1',
    );
    assertEquals((await service.stop("SIGTERM")).code, 0);
    const lines = service.output().split("\n").filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    const logged = lines.find((line) => line.requestId === "probe-1");
    assert(logged, service.output());
    assertEquals([logged.msg, logged.route, logged.status], ["request", "/api/health", 200]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
