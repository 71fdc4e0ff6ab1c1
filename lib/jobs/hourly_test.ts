import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { faultyKv } from "../../tests/_helpers/faults.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { guardKv } from "../kv/guard.ts";
import { tallyKey } from "../kv/keys.ts";
import type { LogLine } from "../log/mod.ts";
import { REFERRER_TALLY } from "../tallies/kinds.ts";
import { runHourlyJob } from "./hourly.ts";

Deno.test("the hourly job sweeps, then repairs the ranking, and logs both", async () => {
  await using store = await memoryStore();
  // A click counted by a process that stopped before ranking its referrer.
  await store.kv.atomic().sum(tallyKey(REFERRER_TALLY, "x.example"), 1n).commit();
  const lines: LogLine[] = [];
  await runHourlyJob(store, { log: (line) => lines.push(line) });
  assertEquals(lines.map(({ msg, swept, reranked }) => ({ msg, swept, reranked })), [
    { msg: "sweep", swept: 0, reranked: undefined },
    { msg: "ranks repaired", swept: undefined, reranked: 1 },
  ]);
});

Deno.test("a store that is down: the claim and the repair are logged, and the sweep's failure thrown", async () => {
  await using store = await memoryStore();
  const down = { ...store, kv: guardKv(faultyKv(store.kv, { commits: 0, down: true })) };
  const lines: LogLine[] = [];
  await assertRejects(() => runHourlyJob(down, { log: (line) => lines.push(line) }), Error);
  assertEquals(lines.map(({ level, msg, hour }) => [level, msg, hour]), [
    ["error", "hourly job not claimed; running it", "2026-11-02T12:00:00.000Z"],
    ["error", "ranks repair failed", undefined],
  ]);
  // Nothing was claimed: the store, back up, runs the hour.
  lines.length = 0;
  await runHourlyJob(store, { log: (line) => lines.push(line) });
  assertEquals(lines.map(({ msg }) => msg), ["sweep", "ranks repaired"]);
});

Deno.test("of the instances sharing a store, one runs each hour's job", async () => {
  await using store = await memoryStore();
  const lines: LogLine[] = [];
  const log = (line: LogLine) => lines.push(line);
  const hourly = async (offsetMs: number) => {
    lines.length = 0;
    await runHourlyJob({ ...store, now: () => store.now() + offsetMs }, { log });
    return lines.map(({ msg, hour }) => hour === undefined ? msg : `${msg} ${hour}`);
  };
  const left = (hour: string) => [`hourly job left to another instance 2026-11-02T${hour}.000Z`];
  assertEquals(await hourly(0), ["sweep", "ranks repaired"]);
  // Another instance, its clock a little behind or ahead, fires for the same hour.
  assertEquals(await hourly(-1500), left("12:00:00"));
  assertEquals(await hourly(2500), left("12:00:00"));
  store.advance(3_600_000);
  assertEquals(await hourly(-1500), ["sweep", "ranks repaired"]);
  assertEquals(await hourly(0), left("13:00:00"));
});
