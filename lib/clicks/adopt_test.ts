import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { type Faults, faultyKv, kvFailingCommits } from "../../tests/_helpers/faults.ts";
import { keysUnder, memoryStore, tally, type TestStore } from "../../tests/_helpers/store.ts";
import { MOBILE_UA, record, visit } from "../../testing/visits.ts";
import { clickWriterKey, linkStatsKey } from "../kv/keys.ts";
import { createLink } from "../links/create.ts";
import { readCounters } from "../links/read.ts";
import {
  CLICK_TALLY,
  COUNTRY_TALLY,
  DAY_CLICK_TALLY,
  DEVICE_TALLY,
  REFERRER_TALLY,
} from "../tallies/kinds.ts";
import { readLinkStats, shareOf } from "../tallies/shares.ts";
import { Adopter, PARTS_PER_TURN, silenceOf } from "./adopt.ts";
import { FigureBook } from "./book.ts";
import { CommitSequence } from "./sequence.ts";
import { ClickBuffer } from "./buffer.ts";
import { FigureCadence } from "./cadence.ts";

const options = { serviceHost: "sho.rt" };
const LAG_MS = 60_000;
// Past a writer's silence.
const SILENT = silenceOf(LAG_MS) + 1;

interface Made {
  id: string;
  slug: string;
  title: string;
}

async function links(store: TestStore, count: number): Promise<Made[]> {
  const made: Made[] = [];
  for (let i = 0; i < count; i++) {
    made.push(await createLink(store, { url: `example.com/${i}`, slug: `link${i}` }, options));
  }
  return made;
}

/** Records `count` visits to each link, of three kinds in turn. */
function visitEach(buffer: ClickBuffer, made: Made[], count: number): void {
  for (const link of made) {
    for (let i = 0; i < count; i++) {
      if (i % 3 === 0) record(buffer, link, visit());
      else if (i % 3 === 1) record(buffer, link, visit({ referer: "https://news.example/a" }));
      else {record(
          buffer,
          link,
          visit({ userAgent: MOBILE_UA, client: "2a00:1450:4001:81b::200e" }),
        );}
    }
  }
}

function sum(counts: Record<string, number> | undefined): number {
  return Object.values(counts ?? {}).reduce((a, b) => a + b, 0);
}

/**
 * Every figure of `made` and the totals agree: each link's counter, its record's clicks, days,
 * referrers, devices and countries, and the service-wide tallies; `clicks` each.
 */
async function assertFiguresAgree(store: TestStore, made: Made[], clicks: number): Promise<void> {
  const counters = await readCounters(store, made.map((link) => link.id));
  let total = 0;
  for (const [i, link] of made.entries()) {
    const stats = readLinkStats((await store.kv.get(linkStatsKey(link.id))).value);
    const figures = {
      counter: counters[i]!.clicks,
      clicks: shareOf(stats, CLICK_TALLY),
      days: sum(stats.shares[DAY_CLICK_TALLY]),
      referrers: sum(stats.shares[REFERRER_TALLY]),
      devices: sum(stats.shares[DEVICE_TALLY]),
      countries: sum(stats.shares[COUNTRY_TALLY]),
    };
    assertEquals(figures, {
      counter: clicks,
      clicks,
      days: clicks,
      referrers: clicks,
      devices: clicks,
      countries: clicks,
    }, `the figures of ${link.slug}`);
    total += figures.clicks;
  }
  assertEquals(await tally(store, CLICK_TALLY), total, "the service-wide clicks");
  assertEquals(
    (await tally(store, DEVICE_TALLY, "desktop")) + (await tally(store, DEVICE_TALLY, "mobile")),
    total,
    "the service-wide devices",
  );
  assertEquals(await keysUnder(store, ["click_journal"]), [], "every journal part is spent");
}

/** `taker` hears the writers' keys, then, past their silence, takes the silent ones over. */
async function takeOver(store: TestStore, taker: ClickBuffer): Promise<void> {
  await taker.tick();
  store.advance(SILENT);
  await taker.flush();
}

Deno.test("a writer that never returns has its figures written by the next one", async () => {
  await using store = await memoryStore();
  const made = await links(store, 30);
  const killed = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(killed, made, 6);
  // One tick writes the clicks; the figures wait for the lag, and the process is killed.
  await killed.tick();
  const next = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await next.flush();
  assertEquals(await tally(store, CLICK_TALLY), 0, "the killed writer is not silent yet");
  store.advance(SILENT);
  await next.flush();
  await assertFiguresAgree(store, made, 6);
  const key = await store.kv.get(clickWriterKey(killed.writer));
  assertEquals((key.value as { takenBy?: string }).takenBy, next.writer);
});

Deno.test("a journal read twice, by a second taker, adds each visit once", async () => {
  await using store = await memoryStore();
  const made = await links(store, 12);
  const killed = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(killed, made, 3);
  await killed.tick();
  const journal = await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }));
  assert(journal.length > 0);
  const first = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await takeOver(store, first);
  await assertFiguresAgree(store, made, 3);
  // The journal as it stood before the first taker folded it, as a taker killed before its
  // deletes would leave it; the first taker falls silent too.
  for (const part of journal) await store.kv.set(part.key, part.value);
  const second = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await takeOver(store, second);
  const key = await store.kv.get(clickWriterKey(killed.writer));
  assertEquals((key.value as { takenBy?: string }).takenBy, second.writer);
  await assertFiguresAgree(store, made, 3);
});

Deno.test("a taker killed halfway through its folds leaves the rest to the next", async () => {
  await using store = await memoryStore();
  const made = await links(store, 40);
  const killed = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(killed, made, 3);
  await killed.tick();
  // The first taker's store fails after its takeover and two commits of figures.
  const faults: Faults = { commits: 1_000, passing: 3, down: false };
  const first = new ClickBuffer({ ...store, kv: faultyKv(store.kv, faults) }, {
    statsLagMs: LAG_MS,
    figuresPerCommit: 10,
    log: () => {},
  });
  await takeOver(store, first);
  const folded = await tally(store, CLICK_TALLY);
  assert(folded > 0 && folded < 120, `${folded} clicks folded before the failure`);
  const second = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await takeOver(store, second);
  await assertFiguresAgree(store, made, 3);
});

Deno.test("a commit whose answer was lost is folded once, by the writer's taker", async () => {
  await using store = await memoryStore();
  const made = await links(store, 5);
  const faults: Faults = { commits: 0, down: false, landing: 1 };
  const killed = new ClickBuffer({ ...store, kv: faultyKv(store.kv, faults) }, {
    statsLagMs: LAG_MS,
    log: () => {},
  });
  visitEach(killed, made, 3);
  await killed.tick();
  assertEquals(killed.pending, 15, "the writer cannot know its commit landed");
  const next = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await takeOver(store, next);
  await assertFiguresAgree(store, made, 3);
  // The writer was only slow: it finds its commit landed, and goes on under a new name.
  await killed.flush();
  assertEquals(killed.pending, 0);
  await assertFiguresAgree(store, made, 3);
  visitEach(killed, made, 3);
  await killed.flush();
  await assertFiguresAgree(store, made, 6);
});

Deno.test("a writer taken over while it still runs gives its figures up and goes on", async () => {
  await using store = await memoryStore();
  const made = await links(store, 8);
  const slow = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(slow, made, 3);
  await slow.tick();
  const first = slow.writer;
  const next = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await takeOver(store, next);
  await assertFiguresAgree(store, made, 3);
  visitEach(slow, made, 3);
  await slow.flush();
  assert(slow.writer !== first, "it writes under a new name");
  assertEquals(slow.figuresWaiting, 0);
  await assertFiguresAgree(store, made, 6);
});

Deno.test("a writer holding figures speaks before it would fall silent", async () => {
  await using store = await memoryStore();
  const made = await links(store, 4);
  const holding = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(holding, made, 3);
  await holding.tick();
  const other = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await other.tick(); // it hears the holding writer's key
  const silence = silenceOf(LAG_MS);
  store.advance(silence / 2);
  await holding.tick(); // nothing recorded: it speaks all the same
  store.advance(silence / 2 + 1);
  await other.flush();
  assertEquals(await tally(store, CLICK_TALLY), 0, "its figures are still its own");
  assertEquals(holding.figuresWaiting, 4);
  await holding.flush();
  await assertFiguresAgree(store, made, 3);
});

Deno.test("a writer whose clock runs a minute behind is not taken for silent", async () => {
  await using store = await memoryStore();
  const made = await links(store, 2);
  const behind = new ClickBuffer({ ...store, now: () => store.now() - 60_000 }, {
    statsLagMs: LAG_MS,
  });
  const other = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(behind, made, 3);
  await behind.tick();
  const name = behind.writer;
  await other.tick();
  for (let i = 0; i < 3; i++) {
    store.advance(silenceOf(LAG_MS) / 2);
    visitEach(behind, made, 1);
    await behind.tick();
    await other.tick();
  }
  assertEquals(behind.writer, name, "never taken over");
  assertEquals(typeof (await store.kv.get(clickWriterKey(name))).value, "number");
  await behind.flush();
  await assertFiguresAgree(store, made, 6);
});

Deno.test("a writer that stops leaves no key, and a silent one with nothing left loses its key", async () => {
  await using store = await memoryStore();
  const made = await links(store, 2);
  const stopped = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(stopped, made, 3);
  await stopped.stop();
  assertEquals(await keysUnder(store, ["click_writers"]), [], "a clean stop deletes its key");
  const silent = new ClickBuffer(store, { statsLagMs: LAG_MS });
  visitEach(silent, made, 3);
  await silent.flush(); // everything written, and then the process is killed
  assertEquals((await keysUnder(store, ["click_writers"])).length, 1);
  const other = new ClickBuffer(store, { statsLagMs: LAG_MS });
  await takeOver(store, other);
  assertEquals(await keysUnder(store, ["click_writers"]), [], "nothing to take over: the key goes");
  await assertFiguresAgree(store, made, 6);
});

Deno.test("a writer taken over later is read against its links' marks as they are then", async () => {
  await using store = await memoryStore();
  const [link] = await links(store, 1);
  const id = link!.id;
  const line = `${id}\t0\t2026-11-02\t1\tdesktop 1\tdirect 1\tGB 1`;
  const journal = async (writer: string, commits: number) => {
    for (let commit = 1; commit <= commits; commit++) {
      await store.kv.set(["click_journal", writer, commit, 0], line);
    }
    await store.kv.set(clickWriterKey(writer), commits);
  };
  // A long journal, read over several turns: the link's facts are read in the first.
  const long = 2 * PARTS_PER_TURN + 50;
  await journal("gone", long);
  const adopter = new Adopter(new CommitSequence(store), store, silenceOf(LAG_MS));
  const book = new FigureBook(LAG_MS, Infinity);
  await adopter.turn(book); // hears it
  store.advance(SILENT);
  await adopter.turn(book); // takes it over, reads a turn's parts
  // Meanwhile another writer journals three clicks and folds them into the link's record, its
  // parts left behind (their delete failed), then falls silent.
  await journal("late", 3);
  const stats = readLinkStats((await store.kv.get(linkStatsKey(id))).value);
  await store.kv.set(linkStatsKey(id), { ...stats, folded: { late: 3 } });
  await adopter.turn(book); // hears it, reads the long journal on
  store.advance(SILENT);
  while (adopter.reading || book.size === 0) await adopter.turn(book);
  const [waiting] = book.take(store.now(), true);
  assertEquals(waiting?.clicks, long, "the long journal's clicks, none of those folded");
});

Deno.test("a takeover whose read of its links' records fails reads those parts again", async () => {
  await using store = await memoryStore();
  const [link] = await links(store, 1);
  const killed = new ClickBuffer(store, { statsLagMs: LAG_MS });
  for (let i = 0; i < 5; i++) record(killed, link!, visit());
  await killed.tick(); // its clicks are journaled, then it is killed
  let failNext = false;
  const kv = new Proxy(store.kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "getMany") {
        return (keys: Deno.KvKey[]) => {
          if (failNext && keys.some((key) => key[0] === "links_by_created")) {
            failNext = false;
            return Promise.reject(new Error("the store failed to answer"));
          }
          return value.call(target, keys);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const taker = new ClickBuffer({ ...store, kv }, { statsLagMs: LAG_MS, log: () => {} });
  await taker.tick(); // hears the killed writer
  store.advance(SILENT);
  failNext = true;
  await taker.tick(); // takes it over; the read of its links' records fails once
  store.advance(1_000);
  await taker.flush();
  await assertFiguresAgree(store, [link!], 5);
});

Deno.test("a journal whose taker fell silent is taken with that taker, which then stops", async () => {
  await using store = await memoryStore();
  const [link] = await links(store, 1);
  const line = `${link!.id}\t0\t2026-11-02\t1\tdesktop 1\tdirect 1\tGB 1`;
  await store.kv.set(["click_journal", "a", 1, 0], line);
  // "b" took "a" over and reads it; its own journal is empty.
  const b = new CommitSequence(store, "b");
  await b.commit(store.kv.atomic());
  await store.kv.set(clickWriterKey("a"), { takenBy: "b", last: 1 });
  const adopter = new Adopter(new CommitSequence(store), store, silenceOf(LAG_MS));
  const book = new FigureBook(LAG_MS, Infinity);
  await adopter.turn(book); // hears both
  store.advance(SILENT);
  await adopter.turn(book); // "b" is silent: "a" is taken, and "b" with it
  const held = (await store.kv.get(clickWriterKey("b"))).value as { takenBy?: string };
  assert(held?.takenBy !== undefined, "b's key is taken, not deleted");
  assertEquals(await b.commit(store.kv.atomic()), "refused", "b speaks again: it was taken over");
  assert(b.id !== "b", "so it goes on under a new name, and reads nothing of a's");
  assertEquals(book.size, 1, "the taker holds a's figures");
});

Deno.test("a journal two instances came to hold counts its clicks once", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "l" }, options);
  const line = `${link.id}\t0\t2026-11-02\t1\tdesktop 1\tdirect 1\tGB 1`;
  const N = 3 * PARTS_PER_TURN + 50; // read over four turns
  for (let commit = 1; commit <= N; commit++) {
    await store.kv.set(["click_journal", "a", commit, 0], line);
  }
  await store.kv.set(clickWriterKey("a"), N);
  const opts = { lagMs: LAG_MS, maxBytes: Infinity, report: () => {} };
  // b's deletes of spent parts fail (as a store hiccup would), so the parts it folded stay.
  const noDeletes = kvFailingCommits(
    store.kv,
    (calls) => calls.every(({ name }) => name === "delete"),
  );
  const storeB = { ...store, kv: noDeletes };
  const seqB = new CommitSequence(storeB, "b");
  let hook = true;
  class Hooked extends CommitSequence {
    override async takeOver(...entries: Deno.KvEntryMaybe<unknown>[]): Promise<boolean> {
      const ok = await super.takeOver(...entries);
      // b, stalled past its silence, speaks again just as c takes "a" from it: taken with "a",
      // it finds itself taken over and reads "a" no more.
      if (ok && entries[0]!.key[1] === "a" && hook) {
        hook = false;
        await seqB.commit(store.kv.atomic());
      }
      return ok;
    }
  }
  const b = new FigureCadence(storeB, seqB, opts);
  const c = new FigureCadence(store, new Hooked(store, "c"), opts);
  await b.run(false).catch(() => {});
  await c.run(false); // both hear "a"
  store.advance(SILENT);
  await b.run(false).catch(() => {}); // b takes "a" over and writes a turn's parts
  await c.run(false); // c hears b's key and a's new value
  store.advance(SILENT); // b stalls
  for (let i = 0; i < 6; i++) {
    await c.run(false);
    await b.run(false).catch(() => {});
    store.advance(1000);
  }
  const stats = readLinkStats((await store.kv.get(linkStatsKey(link.id))).value);
  assertEquals(shareOf(stats, CLICK_TALLY), N);
  assert(seqB.id !== "b", "b went on under a new name");
});

Deno.test("a journal whose taker this one took is taken at the next turn, not a silence on", async () => {
  await using store = await memoryStore();
  const [link] = await links(store, 1);
  const line = `${link!.id}\t0\t2026-11-02\t1\tdesktop 1\tdirect 1\tGB 1`;
  // "b" took "z" over; both are silent, "b" with a journal of its own, so each is taken alone.
  await store.kv.set(["click_journal", "z", 1, 0], line);
  await store.kv.set(clickWriterKey("z"), { takenBy: "b", last: 1 });
  await store.kv.set(["click_journal", "b", 1, 0], line);
  await store.kv.set(clickWriterKey("b"), 1);
  // The commit that takes "z" fails once.
  let failZ = false;
  const kv = kvFailingCommits(store.kv, (calls) => {
    const takesZ = calls.some(({ args }) => {
      const key = (args[0] as { key?: Deno.KvKey })?.key ?? args[0];
      return Array.isArray(key) && key[0] === "click_writers" && key[1] === "z";
    });
    if (!failZ || !takesZ) return false;
    failZ = false;
    return true;
  });
  const taker = { ...store, kv };
  const adopter = new Adopter(new CommitSequence(taker, "c"), taker, silenceOf(LAG_MS));
  const book = new FigureBook(LAG_MS, Infinity);
  await adopter.turn(book); // hears both
  store.advance(SILENT);
  failZ = true;
  await adopter.turn(book).catch(() => {}); // takes "b"; taking "z" fails
  store.advance(1_000);
  await adopter.turn(book);
  const z = (await store.kv.get(clickWriterKey("z"))).value as { takenBy?: string };
  assertEquals(z.takenBy, "c", "its taker stopped, the journal is taken at once");
});
