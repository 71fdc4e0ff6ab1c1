import { assert, assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { faultyKv } from "../../tests/_helpers/faults.ts";
import { memoryStore, TEST_START } from "../../tests/_helpers/store.ts";
import { BusyError, StoreUnavailableError } from "../errors.ts";
import { createStore } from "../kv/store.ts";
import { countRequest } from "./mod.ts";

const rule = { name: "test", limit: 5, windowMs: 60_000 };

Deno.test("countRequest allows the limit, then refuses until the window ends", async () => {
  await using store = await memoryStore();
  const decisions = [];
  for (let i = 0; i < 7; i++) decisions.push(await countRequest(store, rule, "a"));
  assertEquals(decisions.map((d) => d.allowed), [true, true, true, true, true, false, false]);
  assertEquals(decisions.map((d) => d.remaining), [4, 3, 2, 1, 0, 0, 0]);
  // The test clock starts on a whole minute, so the window has 60 s left.
  assertEquals(decisions[0]?.retryAfterSeconds, 60);
  store.advance(60_000);
  assertEquals((await countRequest(store, rule, "a")).allowed, true);
});

Deno.test("countRequest keeps each client and each limit apart", async () => {
  await using store = await memoryStore();
  for (let i = 0; i < 5; i++) await countRequest(store, rule, "a");
  assertEquals((await countRequest(store, rule, "b")).allowed, true);
  assertEquals((await countRequest(store, { ...rule, name: "other" }, "a")).allowed, true);
  assertEquals((await countRequest(store, rule, "a")).allowed, false);
});

Deno.test("countRequest is exact under concurrency", async () => {
  await using store = await memoryStore();
  const decisions = await Promise.all(
    Array.from({ length: 40 }, () => countRequest(store, rule, "a")),
  );
  assertEquals(decisions.filter((d) => d.allowed).length, 5);
});

Deno.test("countRequest stays exact across instances sharing the store", async () => {
  await using store = await memoryStore();
  // Another instance: its own handle on the same database, so its own merging.
  const other = createStore(store.kv, { now: store.now });
  const decisions = await Promise.all(
    Array.from({ length: 100 }, (_, i) => countRequest(i % 2 ? other : store, rule, "a")),
  );
  assertEquals(decisions.filter((d) => d.allowed).length, 5);
  assertEquals(decisions.map((d) => d.count).sort((a, b) => a - b)[99], 100);
});

Deno.test("countRequest merges requests sent together into a few commits", async () => {
  const kv = await Deno.openKv(":memory:");
  let commits = 0;
  const store = createStore(
    faultyKv(kv, { commits: 0, down: false, onCommit: () => commits++ }),
    { now: () => TEST_START },
  );
  const decisions = await Promise.all(
    Array.from({ length: 1000 }, () => countRequest(store, rule, "a")),
  );
  assertEquals(decisions.map((d) => d.count).sort((a, b) => a - b), range(1, 1000));
  assert(commits <= 3, `${commits} commits`);
  kv.close();
});

Deno.test("countRequest gives up with BusyError after a bounded number of tries", async () => {
  const kv = await Deno.openKv(":memory:");
  let commits = 0;
  const faults = { commits: 0, down: false, refusing: 1_000, onCommit: () => commits++ };
  const store = createStore(faultyKv(kv, faults), { now: () => TEST_START });
  await assertRejects(() => countRequest(store, rule, "a"), BusyError);
  assertEquals(commits, 8);
  // Requests that waited behind the failed write are written afresh.
  faults.refusing = 0;
  assertEquals((await countRequest(store, rule, "a")).count, 1);
  kv.close();
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

Deno.test("a window whose write the store refuses is counted in memory, and the store takes the count back", async () => {
  const kv = await Deno.openKv(":memory:");
  const faults = { commits: 0, down: false };
  const store = createStore(faultyKv(kv, faults), { now: () => TEST_START });
  try {
    assertEquals((await countRequest(store, rule, "a")).count, 1);
    faults.commits = 1_000; // a full disk: reads answer, writes fail
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await countRequest(store, rule, "a"));
    assertEquals(decisions.map((d) => [d.count, d.allowed]), [
      [2, true],
      [3, true],
      [4, true],
      [5, true],
      [6, false],
      [7, false],
    ]);
    // Concurrent requests are counted exactly in memory too.
    const together = await Promise.all(
      Array.from({ length: 10 }, () => countRequest(store, rule, "b")),
    );
    assertEquals(together.filter((d) => d.allowed).length, 5);
    // The store works again: the next write carries what memory counted.
    faults.commits = 0;
    assertEquals((await countRequest(store, rule, "a")).count, 8);
    const stored = [];
    for await (const entry of kv.list<number>({ prefix: [] })) stored.push(entry.value);
    assertEquals(stored.includes(8), true, String(stored));
  } finally {
    kv.close();
  }
});

Deno.test("a store that cannot even be read is down: the request fails, nothing is counted", async () => {
  const kv = await Deno.openKv(":memory:");
  const store = createStore(faultyKv(kv, { commits: 0, down: true }), { now: () => TEST_START });
  try {
    await assertRejects(() => countRequest(store, rule, "a"), StoreUnavailableError);
  } finally {
    kv.close();
  }
});
