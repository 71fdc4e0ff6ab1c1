import { assertEquals } from "../../tests/_helpers/assert.ts";
import { keysUnder, memoryStore, type TestStore } from "../../tests/_helpers/store.ts";
import { record, visit } from "../../testing/visits.ts";
import { createLink } from "../links/create.ts";
import type { Store } from "../kv/store.ts";
import { readOneLinkFigures } from "../tallies/link_figures.ts";
import { silenceOf } from "./adopt.ts";
import { ClickBuffer } from "./buffer.ts";
import { OtherJournals } from "./journaled.ts";

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
  const killed = new ClickBuffer(a, { statsLagMs: LAG_MS });
  const next = new ClickBuffer(b, { statsLagMs: LAG_MS });
  for (let i = 0; i < 4; i++) record(killed, link, visit());
  await killed.tick();
  await next.tick();
  assertEquals(await clicksVia(b, link.id), 4);
  store.advance(silenceOf(LAG_MS) + 1);
  await next.tick(); // takes the journal over, its figures due at once
  assertEquals(await clicksVia(b, link.id), 4);
  await next.flush();
  assertEquals(await clicksVia(b, link.id), 4);
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
  const others = new OtherJournals(b, LAG_MS);
  record(writer, kept, visit());
  record(writer, read, visit());
  await writer.tick();
  await others.fresh("reader");
  assertEquals(others.size, 2);
  assertEquals(others.clicksOf(read.id, {}), 1);
  assertEquals(
    others.clicksOf(read.id, { [writer.writer]: Number.MAX_SAFE_INTEGER }),
    0,
    "its record holds them",
  );
  assertEquals(others.clicksOf(read.id, {}), 1, "a record read earlier may still ask");
  store.advance(LAG_MS + 5_000);
  await others.fresh("reader");
  assertEquals(others.size, 2, "its part is still there: looked at again a lag period on");
  await writer.flush();
  store.advance(5_000);
  await others.fresh("reader");
  assertEquals(others.size, 2, "not yet looked at again");
  store.advance(LAG_MS);
  await others.fresh("reader");
  assertEquals(others.size, 0, "its part spent, its clicks are forgotten");
});

Deno.test("readings asked for while one runs share the next, which starts after it", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "late" }, options);
  const [a, b] = instances(store);
  const writer = new ClickBuffer(a, { statsLagMs: LAG_MS });
  const others = new OtherJournals(b, LAG_MS);
  record(writer, link, visit());
  await writer.tick();
  const first = others.fresh("reader");
  const second = others.fresh("reader");
  assertEquals(others.fresh("reader"), second, "calls while one runs share the next");
  let firstDone = false;
  void first.then(() => firstDone = true);
  await second;
  assertEquals(firstDone, true, "the next starts once the one running is done");
  assertEquals(others.clicksOf(link.id, {}), 1, "each journal line is read once");
});
