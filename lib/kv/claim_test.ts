import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { faultyKv } from "../../tests/_helpers/faults.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { StoreUnavailableError } from "../errors.ts";
import { claimRun } from "./claim.ts";
import { guardKv } from "./guard.ts";

const hourly = (run: number) => ({ job: "hourly", run, holdMs: 60_000 });

Deno.test("a run is claimed once; other runs and other jobs are claimed on their own", async () => {
  await using store = await memoryStore();
  assertEquals(await claimRun(store, hourly(1)), true);
  assertEquals(await claimRun(store, hourly(1)), false);
  assertEquals(await claimRun(store, hourly(2)), true);
  assertEquals(await claimRun(store, { ...hourly(1), job: "daily" }), true);
  assertEquals(await claimRun(store, { ...hourly(1), job: "daily" }), false);
});

Deno.test("a store that is down says so, and claims nothing", async () => {
  await using store = await memoryStore();
  const down = { ...store, kv: guardKv(faultyKv(store.kv, { commits: 0, down: true })) };
  await assertRejects(() => claimRun(down, hourly(1)), StoreUnavailableError);
  assertEquals(await claimRun(store, hourly(1)), true);
});

Deno.test("a store locked by another process is waited for", async () => {
  await using store = await memoryStore();
  let locked = 2;
  const kv = new Proxy(store.kv, {
    get(target, property) {
      if (property !== "atomic") return Reflect.get(target, property, target);
      return () => {
        const atomic = target.atomic();
        if (locked-- <= 0) return atomic;
        return new Proxy(atomic, {
          get: (op, name) =>
            name === "commit"
              ? () => Promise.reject(new Error("database is locked"))
              : Reflect.get(op, name, op),
        });
      };
    },
  });
  assertEquals(await claimRun({ ...store, kv }, hourly(1)), true);
  assertEquals(locked, -1);
});
