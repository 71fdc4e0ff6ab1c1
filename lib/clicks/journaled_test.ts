import { assertEquals } from "../../tests/_helpers/assert.ts";
import { type Faults, faultyKv } from "../../tests/_helpers/faults.ts";
import { keysUnder, memoryStore, type TestStore } from "../../tests/_helpers/store.ts";
import { record, visit } from "../../testing/visits.ts";
import { createLink } from "../links/create.ts";
import type { Store } from "../kv/store.ts";
import { readOneLinkFigures } from "../tallies/link_figures.ts";
import { silenceOf } from "./adopt.ts";
import { ClickBuffer } from "./buffer.ts";
import { COMMIT_JOURNAL_BYTES, PART_BYTES, readJournalClicks } from "./journal.ts";
import { OtherJournals, PARTS_PER_PAGE } from "./journaled.ts";

const LAG_MS = 60_000;
const options = { serviceHost: "sho.rt" };

/** Two instances over one store: each its own `Store`, as two processes would have. */
function instances(store: TestStore): [Store, Store] {
  return [{ ...store }, { ...store }];
}

async function clicksVia(store: Store, id: string): Promise<number | undefined> {
  return (await readOneLinkFigures(store, id))?.clicks;
}

Deno.test("clicks one instance journaled count on another at once, and once when written", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "both" }, options);
  const [a, b] = instances(store);
  const one = new ClickBuffer(a, { statsLagMs: LAG_MS });
  new ClickBuffer(b, { statsLagMs: LAG_MS });
  for (let i = 0; i < 5; i++) record(one, link, visit());
  await one.tick();
  assertEquals(await clicksVia(a, link.id), 5, "its own, from its figures waiting");
  assertEquals(await clicksVia(b, link.id), 5, "the other's, from the journal");
  await one.flush();
  assertEquals(await clicksVia(a, link.id), 5, "in the record now, not counted twice");
  assertEquals(await clicksVia(b, link.id), 5);
  for (let i = 0; i < 2; i++) record(one, link, visit());
  await one.tick();
  assertEquals([await clicksVia(a, link.id), await clicksVia(b, link.id)], [7, 7]);
});

Deno.test("a killed writer's clicks count once before, while and after they are taken over", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "killed" }, options);
  const [a, b] = instances(store);
  const faults: Faults = { commits: 0, down: false };
  const killed = new ClickBuffer(a, { statsLagMs: LAG_MS });
  const flaky: Store = { ...b, kv: faultyKv(b.kv, faults) };
  const next = new ClickBuffer(flaky, { statsLagMs: LAG_MS });
  for (let i = 0; i < 4; i++) record(killed, link, visit());
  await killed.tick();
  await next.tick();
  assertEquals(await clicksVia(flaky, link.id), 4);
  store.advance(silenceOf(LAG_MS) + 1);
  // It takes the journal over (one commit), then its write of the figures fails.
  Object.assign(faults, { passing: 1, commits: 10 });
  await next.tick();
  assertEquals(next.figuresWaiting, 1, "taken over, not yet written");
  assertEquals(await clicksVia(flaky, link.id), 4, "counted once while they wait");
  faults.commits = 0;
  await next.flush();
  assertEquals(next.figuresWaiting, 0);
  assertEquals(await clicksVia(flaky, link.id), 4);
  assertEquals(await keysUnder(store, ["click_journal"]), [], "its journal is spent");
});

Deno.test("another writer's clicks count until folded, and are forgotten once spent", async () => {
  await using store = await memoryStore();
  const [kept, read] = [
    await createLink(store, { url: "example.com/1", slug: "kept" }, options),
    await createLink(store, { url: "example.com/2", slug: "read" }, options),
  ];
  const [a, b] = instances(store);
  const writer = new ClickBuffer(a, { statsLagMs: LAG_MS });
  const others = new OtherJournals(b, LAG_MS, () => "reader");
  record(writer, kept, visit());
  record(writer, read, visit());
  await writer.tick();
  await others.fresh();
  assertEquals(others.size, 2);
  assertEquals(others.clicksOf(read.id, {}), 1);
  assertEquals(
    others.clicksOf(read.id, { [writer.writer]: Number.MAX_SAFE_INTEGER }),
    0,
    "its record holds them",
  );
  assertEquals(others.clicksOf(read.id, {}), 1, "a record read earlier may still ask");
  store.advance(LAG_MS + 5_000);
  await others.fresh();
  assertEquals(others.size, 2, "its part is still there: looked at again a lag period on");
  await writer.flush();
  store.advance(5_000);
  await others.fresh();
  assertEquals(others.size, 2, "not yet looked at again");
  store.advance(LAG_MS);
  await others.fresh();
  assertEquals(others.size, 2, "found gone once: a read of a record made before may ask");
  assertEquals(others.clicksOf(read.id, {}), 1);
  store.advance(5_000);
  await others.fresh();
  assertEquals(others.size, 0, "found gone twice, its clicks are forgotten");
});

Deno.test("readings asked for while one runs share the next, which starts after it", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "late" }, options);
  const [a, b] = instances(store);
  const writer = new ClickBuffer(a, { statsLagMs: LAG_MS });
  const others = new OtherJournals(b, LAG_MS, () => "reader");
  record(writer, link, visit());
  await writer.tick();
  const first = others.fresh();
  const second = others.fresh();
  assertEquals(others.fresh(), second, "calls while one runs share the next");
  let firstDone = false;
  let shared = false;
  const third = first.then(() => {
    firstDone = true;
    // Between the end of one reading and the start of the next, a call still shares the next.
    shared = others.fresh() === second;
  });
  await Promise.all([second, third]);
  assertEquals([firstDone, shared], [true, true]);
  assertEquals(others.clicksOf(link.id, {}), 1, "each journal line is read once");
});

Deno.test("a writer taken over while it runs counts its clicks as it goes on renamed", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "renamed" }, options);
  const [a, b] = instances(store);
  const slow = new ClickBuffer(a, { statsLagMs: LAG_MS });
  const next = new ClickBuffer(b, { statsLagMs: LAG_MS });
  for (let i = 0; i < 3; i++) record(slow, link, visit());
  await slow.tick();
  const first = slow.writer;
  await next.tick();
  store.advance(silenceOf(LAG_MS) + 1);
  await next.flush(); // takes the journal over and writes its figures
  assertEquals([await clicksVia(a, link.id), await clicksVia(b, link.id)], [3, 3]);
  for (let i = 0; i < 2; i++) record(slow, link, visit());
  await slow.tick(); // its commit finds itself taken over: it gives its book up, renamed
  assertEquals(slow.writer !== first, true, "it writes under a new name");
  assertEquals([await clicksVia(a, link.id), await clicksVia(b, link.id)], [5, 5]);
  await slow.flush();
  assertEquals([await clicksVia(a, link.id), await clicksVia(b, link.id)], [5, 5]);
});

Deno.test("a journal line that does not read whole counts no click, as a taker would", () => {
  const value = ["a\t0\t2026-11-02\t2\tdesktop 2\t\tGB 2", "b\t0\t2026-11-02\t3", "c\t0\t\t4\t\t\t"]
    .join("\n");
  assertEquals(readJournalClicks(value), ["a", 2]);
});

Deno.test("a backlog of journal is read whole in one reading, pages cut within a commit", async () => {
  await using store = await memoryStore();
  const line = "x\t0\t2026-11-02\t1\tdesktop 1\tdirect 1\tGB 1";
  // Three parts a commit: a page of PARTS_PER_PAGE parts ends within one.
  const commits = PARTS_PER_PAGE;
  for (let commit = 1; commit <= commits; commit++) {
    for (let part = 0; part < 3; part++) {
      await store.kv.set(["click_journal", "backlog", commit, part], line);
    }
  }
  await store.kv.set(["click_writers", "backlog"], commits);
  const others = new OtherJournals(store, LAG_MS, () => "reader");
  await others.fresh();
  assertEquals(others.clicksOf("x", {}), 3 * commits, "every line, each once");
  assertEquals(others.clicksOf("x", { backlog: 100 }), 3 * (commits - 100));
  await others.fresh();
  assertEquals(others.clicksOf("x", {}), 3 * commits, "nothing read again");
  // Folded and spent, every part is forgotten, found gone at two looks 5 s apart.
  for (const { key } of await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }))) {
    await store.kv.delete(key);
  }
  store.advance(LAG_MS + 5_000);
  await others.fresh();
  store.advance(5_000);
  await others.fresh();
  assertEquals([others.clicksOf("x", {}), others.size], [0, 0]);
});

Deno.test("a page holds many commits' journals: a reading always moves on", () => {
  // A commit's journal takes at most COMMIT_JOURNAL_BYTES, in parts of PART_BYTES or half that.
  const mostParts = Math.ceil(COMMIT_JOURNAL_BYTES / (PART_BYTES / 2));
  assertEquals(PARTS_PER_PAGE > 2 * mostParts, true, `${PARTS_PER_PAGE} against ${mostParts}`);
});
