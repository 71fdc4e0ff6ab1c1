import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { readInSlices } from "./get_many.ts";

Deno.test("reading in slices hands every group in order, with its first key's index", async () => {
  await using store = await memoryStore();
  for (let i = 0; i < 250; i++) if (i % 3 !== 0) await store.kv.set(["n", i], i);
  const keys = Array.from({ length: 250 }, (_, i) => ["n", i]);
  const handed: number[] = [];
  const values: unknown[] = [];
  await readInSlices(store.kv, keys, (entries, from) => {
    handed.push(from);
    values.push(...entries.map((entry) => entry.value));
  }, { groupSize: 40, inFlight: 3 });
  assertEquals(handed, [0, 40, 80, 120, 160, 200, 240]);
  assertEquals(values, keys.map((_, i) => i % 3 === 0 ? null : i));
});

Deno.test("a failed read rejects the reading, and a later one's failure is not left unhandled", async () => {
  await using store = await memoryStore();
  let reads = 0;
  const kv = new Proxy(store.kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "getMany") {
        return (keys: Deno.KvKey[]) =>
          ++reads >= 2 ? Promise.reject(new Error("the store failed")) : value.call(target, keys);
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const keys = Array.from({ length: 100 }, (_, i) => ["n", i]);
  const handed: number[] = [];
  await assertRejects(
    () => readInSlices(kv, keys, (_, from) => handed.push(from), { groupSize: 10, inFlight: 4 }),
    Error,
    "the store failed",
  );
  assertEquals(handed, [0], "groups after the failed one are not handed");
});

Deno.test("reading in slices takes a group of one and one at a time at least", async () => {
  await using store = await memoryStore();
  await store.kv.set(["n", 1], 1);
  const values: unknown[] = [];
  await readInSlices(store.kv, [["n", 0], ["n", 1]], (entries) => {
    values.push(...entries.map((entry) => entry.value));
  }, { groupSize: 0, inFlight: 0 });
  assertEquals(values, [null, 1]);
});
