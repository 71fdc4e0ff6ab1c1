import { assert, assertEquals } from "../_helpers/assert.ts";
import { call, startService, tempDir } from "../../testing/server.ts";
import { pause } from "../../lib/pause.ts";

Deno.test("password hashing leaves the event loop free: /api/version answers within 300 ms", async (t) => {
  await using dir = await tempDir("lapse-busy-");
  await using service = await startService({
    env: { KV_PATH: `${dir.path}/links.kv`, TRUST_PROXY: "1" },
  });
  // 24 is the burst the bound is asked to hold; 48 held /api/version 613 ms without a bound.
  for (const creates of [24, 48]) {
    await t.step(`during ${creates} protected creates sent together`, async () => {
      const waits: number[] = [];
      let hashing = true;
      const probe = (async () => {
        while (hashing) {
          const answer = await call(service.origin, "/api/version");
          assertEquals(answer.status, 200);
          waits.push(answer.doneAt - answer.sentAt);
          await pause(10);
        }
      })();
      const made = await Promise.all(
        Array.from({ length: creates }, (_, i) =>
          call(service.origin, "/api/create", {
            json: { url: `example.com/busy/${creates}/${i}`, pass: "correct horse" },
            client: `203.0.113.${i}`,
          })),
      );
      hashing = false;
      await probe;
      assertEquals(made.map((answer) => answer.status), new Array(creates).fill(201));
      assert(waits.length >= 5, `${waits.length} probes`);
      const slowest = Math.max(...waits);
      assert(slowest < 300, `/api/version took ${Math.round(slowest)} ms`);
    });
  }
});
