import { assertEquals } from "../../tests/_helpers/assert.ts";
import { keysUnder, memoryStore } from "../../tests/_helpers/store.ts";
import { tallyKey, tallyRankedAtKey, tallyRanksPrefix } from "../kv/keys.ts";
import { COUNTRIES, REFERRERS } from "./kinds.ts";
import { repairRanks, rerank } from "./rank.ts";

Deno.test("repairing the ranks moves the names a stopped process left out of place, and only those", async () => {
  await using store = await memoryStore();
  const add = async (kind: string, name: string, count: bigint) => {
    await store.kv.atomic().sum(tallyKey(kind, name), count).commit();
  };
  await add(REFERRERS, "a.example", 3n);
  await add(REFERRERS, "b.example", 2n);
  await add(COUNTRIES, "GB", 1n);
  await rerank(store, [
    { kind: REFERRERS, name: "a.example" },
    { kind: REFERRERS, name: "b.example" },
    { kind: COUNTRIES, name: "GB" },
  ]);
  assertEquals(await repairRanks(store), 0, "every name in its place");
  // Counts that changed with no rerank after: one grew past another, one is gone.
  await add(REFERRERS, "b.example", 5n);
  await add(REFERRERS, "c.example", 1n);
  await store.kv.delete(tallyKey(COUNTRIES, "GB"));
  assertEquals(await repairRanks(store), 3);
  assertEquals(await keysUnder(store, tallyRanksPrefix(REFERRERS)), [
    [...tallyRanksPrefix(REFERRERS), 1n, "c.example"],
    [...tallyRanksPrefix(REFERRERS), 3n, "a.example"],
    [...tallyRanksPrefix(REFERRERS), 7n, "b.example"],
  ]);
  assertEquals(await keysUnder(store, tallyRanksPrefix(COUNTRIES)), [], "a gone name leaves");
  assertEquals((await store.kv.get(tallyRankedAtKey(COUNTRIES, "GB"))).value, null);
  assertEquals(await repairRanks(store), 0, "nothing left to move");
});

Deno.test("repairing the ranks goes through names many commits' worth at a time", async () => {
  await using store = await memoryStore();
  const atomic = store.kv.atomic();
  for (let i = 0; i < 100; i++) atomic.sum(tallyKey(REFERRERS, `site${i}.example`), BigInt(i + 1));
  await atomic.commit();
  assertEquals(await repairRanks(store), 100);
  const ranks = await keysUnder(store, tallyRanksPrefix(REFERRERS));
  assertEquals(ranks.length, 100);
  assertEquals(ranks.at(-1), [...tallyRanksPrefix(REFERRERS), 100n, "site99.example"]);
});
