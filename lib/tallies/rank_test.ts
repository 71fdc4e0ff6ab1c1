import { assertEquals } from "../../tests/_helpers/assert.ts";
import { type Faults, faultyKv } from "../../tests/_helpers/faults.ts";
import { keysUnder, memoryStore, type TestStore } from "../../tests/_helpers/store.ts";
import { talliesPrefix, tallyKey, tallyRankedAtKey, tallyRanksPrefix } from "../kv/keys.ts";
import { minus } from "./count.ts";
import { CLICK_TALLY, COUNTRY_TALLY, REFERRER_TALLY } from "./kinds.ts";
import { repairRanks, rerank } from "./rank.ts";

async function add(store: TestStore, kind: string, name: string, count: bigint): Promise<void> {
  await store.kv.atomic().sum(tallyKey(kind, name), count).commit();
}

Deno.test("repairing the ranks moves the names a stopped process left out of place, and only those", async () => {
  await using store = await memoryStore();
  await add(store, REFERRER_TALLY, "a.example", 3n);
  await add(store, REFERRER_TALLY, "b.example", 2n);
  await add(store, COUNTRY_TALLY, "GB", 1n);
  await add(store, CLICK_TALLY, "", 9n);
  await rerank(store, [
    { kind: REFERRER_TALLY, name: "a.example" },
    { kind: REFERRER_TALLY, name: "b.example" },
    { kind: COUNTRY_TALLY, name: "GB" },
  ]);
  assertEquals(await repairRanks(store), 0, "every name in its place");
  // Counts that changed with no rerank after: one grew past another, one is new, one is gone.
  await add(store, REFERRER_TALLY, "b.example", 5n);
  await add(store, REFERRER_TALLY, "c.example", 1n);
  await store.kv.delete(tallyKey(COUNTRY_TALLY, "GB"));
  assertEquals(await repairRanks(store), 3);
  assertEquals(await keysUnder(store, tallyRanksPrefix(REFERRER_TALLY)), [
    [...tallyRanksPrefix(REFERRER_TALLY), 1n, "c.example"],
    [...tallyRanksPrefix(REFERRER_TALLY), 3n, "a.example"],
    [...tallyRanksPrefix(REFERRER_TALLY), 7n, "b.example"],
  ]);
  assertEquals(await keysUnder(store, tallyRanksPrefix(COUNTRY_TALLY)), [], "a gone name leaves");
  assertEquals((await store.kv.get(tallyRankedAtKey(COUNTRY_TALLY, "GB"))).value, null);
  assertEquals(
    await keysUnder(store, tallyRanksPrefix(CLICK_TALLY)),
    [],
    "a kind not ranked stays so",
  );
  assertEquals(await repairRanks(store), 0, "nothing left to move");
});

Deno.test("repairing the ranks deletes counters back at zero, once their place is gone", async () => {
  await using store = await memoryStore();
  await add(store, REFERRER_TALLY, "gone.example", 2n);
  await add(store, REFERRER_TALLY, "kept.example", 1n);
  await rerank(store, [{ kind: REFERRER_TALLY, name: "gone.example" }]);
  await add(store, REFERRER_TALLY, "gone.example", minus(2n)); // its links removed, no rerank after
  assertEquals(await repairRanks(store), 2, "one taken out of its place, one given a place");
  assertEquals(await keysUnder(store, tallyRanksPrefix(REFERRER_TALLY)), [
    [...tallyRanksPrefix(REFERRER_TALLY), 1n, "kept.example"],
  ]);
  assertEquals(await keysUnder(store, talliesPrefix(REFERRER_TALLY)), [
    tallyKey(REFERRER_TALLY, "gone.example"),
    tallyKey(REFERRER_TALLY, "kept.example"),
  ]);
  assertEquals(await repairRanks(store), 0);
  assertEquals(await keysUnder(store, talliesPrefix(REFERRER_TALLY)), [
    tallyKey(REFERRER_TALLY, "kept.example"),
  ], "the counter at zero with no place is gone");
});

Deno.test("repairing the ranks goes through names many commits' worth at a time", async () => {
  await using store = await memoryStore();
  const atomic = store.kv.atomic();
  for (let i = 0; i < 100; i++) {
    atomic.sum(tallyKey(REFERRER_TALLY, `site${i}.example`), BigInt(i + 1));
  }
  await atomic.commit();
  assertEquals(await repairRanks(store), 100);
  const ranks = await keysUnder(store, tallyRanksPrefix(REFERRER_TALLY));
  assertEquals(ranks.length, 100);
  assertEquals(ranks.at(-1), [...tallyRanksPrefix(REFERRER_TALLY), 100n, "site99.example"]);
});

Deno.test("repairing the ranks gives up on names other writers keep moving, and ends", async () => {
  await using store = await memoryStore();
  await add(store, REFERRER_TALLY, "a.example", 1n);
  await add(store, REFERRER_TALLY, "b.example", 2n);
  // Every commit beaten: five tries at both, then five at each, on both walks.
  const faults: Faults = { commits: 0, down: false, refusing: 1_000 };
  assertEquals(await repairRanks({ ...store, kv: faultyKv(store.kv, faults) }), 0);
  assertEquals(1_000 - faults.refusing!, 15, "five tries for the pair, then five for each");
  assertEquals(await keysUnder(store, tallyRanksPrefix(REFERRER_TALLY)), []);
  faults.refusing = 7; // beaten at the pair, then once more at its first name alone
  assertEquals(await repairRanks({ ...store, kv: faultyKv(store.kv, faults) }), 2);
  assertEquals((await keysUnder(store, tallyRanksPrefix(REFERRER_TALLY))).length, 2);
});
