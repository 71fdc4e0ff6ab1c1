import { assertEquals } from "../../tests/_helpers/assert.ts";
import { faultyKv } from "../../tests/_helpers/faults.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { claimRun } from "./claim.ts";

Deno.test("a run is claimed once; other runs and other jobs are claimed on their own", async () => {
  await using store = await memoryStore();
  assertEquals(await claimRun(store, "hourly", 1, 60_000), true);
  assertEquals(await claimRun(store, "hourly", 1, 60_000), false);
  assertEquals(await claimRun(store, "hourly", 2, 60_000), true);
  assertEquals(await claimRun(store, "daily", 1, 60_000), true);
  assertEquals(await claimRun(store, "daily", 1, 60_000), false);
});

Deno.test("a store that cannot say who claimed a run lets the caller run it", async () => {
  await using store = await memoryStore();
  const down = { ...store, kv: faultyKv(store.kv, { commits: 0, down: true }) };
  assertEquals(await claimRun(down, "hourly", 1, 60_000), true);
  // Nothing was claimed: the store, back up, hands the run out once more.
  assertEquals(await claimRun(store, "hourly", 1, 60_000), true);
  assertEquals(await claimRun(store, "hourly", 1, 60_000), false);
});
