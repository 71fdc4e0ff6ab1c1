import { assert, assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { type Faults, faultyKv } from "../../tests/_helpers/faults.ts";
import { memoryStore, tally } from "../../tests/_helpers/store.ts";
import { clickWriterKey, linkStatsKey } from "../kv/keys.ts";
import { CLICK_TALLY, DAY_CLICK_TALLY, REFERRER_TALLY } from "../tallies/kinds.ts";
import { type LinkStats, newLinkStats } from "../tallies/shares.ts";
import { FigureBook, type WaitingFigures } from "./book.ts";
import { type JournalPart, readJournal, readJournalClicks } from "./journal.ts";
import { CommitSequence } from "./sequence.ts";
import { deltasOf, type LinkVisits } from "./visits.ts";
import { CLICKS_PER_COMMIT, clicksPerCommit, writeClicks } from "./write_clicks.ts";
import { writeFigures } from "./write_figures.ts";

function visits(count: number): LinkVisits[] {
  return Array.from({ length: count }, (_, i) => ({
    slug: `s${i}`,
    id: `id${String(i).padStart(4, "0")}`,
    title: "",
    clicks: 1,
    bots: 0,
    lastUsedAt: 0,
    day: "2026-11-23",
    visits: ["desktop", "site0.example", "GB"],
  }));
}

/** A journal part of commit `commit` holding `left` links. */
function partOf(left = 1, commit = 1): JournalPart {
  return { key: ["click_journal", "w0", commit, 0], writer: "w0", commit, left };
}

/** `links` as figures waiting, all due now. */
function figuresOf(links: LinkVisits[], now = 0): WaitingFigures[] {
  const book = new FigureBook(1_000, Infinity);
  for (const link of links) book.add(link, partOf(), now);
  return book.take(now, true);
}

Deno.test("a commit that landed unanswered is found landed, one that failed is not", async () => {
  await using store = await memoryStore();
  const faults: Faults = { commits: 0, down: false, landing: 1 };
  const kv = faultyKv(store.kv, faults);
  const sequence = new CommitSequence({ ...store, kv }, "w1");
  await assertRejects(() => sequence.commit(kv.atomic().sum(["n"], 1n)), Error);
  const landed = sequence.tried;
  await sequence.settle();
  assert(sequence.landed(landed));
  faults.commits = 1;
  await assertRejects(() => sequence.commit(kv.atomic().sum(["n"], 1n)), Error);
  const lost = sequence.tried;
  assert(lost > landed, "each commit takes a higher number");
  await sequence.settle();
  assert(!sequence.landed(lost));
  assertEquals((await store.kv.get(clickWriterKey("w1"))).value, landed);
  assertEquals(await sequence.commit(kv.atomic().sum(["n"], 1n)), "landed");
  assertEquals((await store.kv.get<Deno.KvU64>(["n"])).value?.value, 2n);
});

Deno.test("a commit that landed on a try answered locked, then refused, counts as landed", async () => {
  await using store = await memoryStore();
  const faults: Faults = { commits: 0, down: false, landingRefused: 1 };
  const kv = faultyKv(store.kv, faults);
  const sequence = new CommitSequence({ ...store, kv });
  assertEquals(await sequence.commit(kv.atomic().sum(["n"], 1n)), "landed");
  faults.refusing = 1;
  assertEquals(await sequence.commit(kv.atomic().sum(["n"], 1n)), "refused");
  assertEquals((await store.kv.get<Deno.KvU64>(["n"])).value?.value, 1n);
});

Deno.test("a writer taken over itself takes another over under its new name", async () => {
  await using store = await memoryStore();
  // Taken over while it did not know its state (as after a commit left unanswered).
  await store.kv.set(clickWriterKey("stale"), { takenBy: "other", last: 1 });
  const stale = new CommitSequence(store, "stale");
  await store.kv.set(clickWriterKey("silent"), 5);
  assertEquals(await stale.takeOver(await store.kv.get(clickWriterKey("silent"))), true);
  assert(stale.id !== "stale", "it goes on under a new name");
  const value = (await store.kv.get(clickWriterKey("silent"))).value as { takenBy: string };
  assertEquals(value.takenBy, stale.id, "the journal names the writer that reads it");
});

Deno.test("two writers' sequences never hold each other back", async () => {
  await using store = await memoryStore();
  const one = new CommitSequence(store);
  const two = new CommitSequence(store);
  for (let i = 0; i < 3; i++) {
    assertEquals(await one.commit(store.kv.atomic().sum(["n"], 1n)), "landed");
    assertEquals(await two.commit(store.kv.atomic().sum(["n"], 1n)), "landed");
  }
  assertEquals((await store.kv.get<Deno.KvU64>(["n"])).value?.value, 6n);
});

Deno.test("a second's clicks are a journal, a chunk a commit, no key a link", async () => {
  await using store = await memoryStore();
  const faults: Faults = { commits: 0, down: false, reading: { now: 0, most: 0 } };
  let commits = 0;
  faults.onCommit = () => commits++;
  const kv = faultyKv(store.kv, faults);
  const links = visits(25);
  links[3]!.clicks = 4;
  links[4]!.clicks = 0; // a bot's visit only
  const chunks: number[] = [];
  const outcome = await writeClicks(new CommitSequence({ ...store, kv }), { ...store, kv }, links, {
    perCommit: 10,
    onCommitted: (chunk) => void chunks.push(chunk.length),
  });
  assertEquals(chunks, [10, 10, 5]);
  assertEquals(commits, 3);
  assertEquals(faults.reading!.most, 0, "no record is read");
  assertEquals(outcome.clicks, 27);
  assertEquals((await store.kv.get(linkStatsKey(links[0]!.id))).value, null);
  assertEquals(await tally(store, CLICK_TALLY), 0, "the totals wait for the figures");
  const parts = await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }));
  assertEquals(parts.length, 3, "one journal part a commit");
  const written = await Array.fromAsync(store.kv.list({ prefix: [] }));
  assertEquals(written.length, 4, "the parts and the writer's key, nothing a link");
  const clicks = parts.flatMap((part) => readJournalClicks(part.value));
  assertEquals(clicks.slice(6, 10), [links[3]!.id, 4, links[5]!.id, 1], "a bot's visit no click");
  const journaled = parts.flatMap((part) => readJournal(part.value));
  assertEquals(journaled.map((one) => one.id), links.map((link) => link.id));
  assertEquals(
    journaled[3],
    { ...deltasOf(links[3]!), slug: "", title: "" },
    "a link's deltas read back as they were, but for its slug and title",
  );
  assertEquals(journaled[4]!.devices, ["desktop", 1], "a visit without a click is journaled");
});

Deno.test("a flush's clicks go in commits of 250 links, more when 100 commits would not do", () => {
  assertEquals(clicksPerCommit(1), 250);
  assertEquals(clicksPerCommit(25_000), 250);
  assertEquals(clicksPerCommit(25_001), 251);
  assertEquals(clicksPerCommit(40_000), 400);
  assertEquals(clicksPerCommit(1_000_000), CLICKS_PER_COMMIT);
});

Deno.test("clicks whose commit was found landed are not journaled again", async () => {
  await using store = await memoryStore();
  const faults: Faults = { commits: 0, down: false, landing: 1 };
  const kv = faultyKv(store.kv, faults);
  const sequence = new CommitSequence({ ...store, kv });
  const links = visits(2);
  const told: string[] = [];
  await assertRejects(() =>
    writeClicks(sequence, { ...store, kv }, links, {
      onCommitted: () => void told.push("committed"),
      onUncertain: () => told.push("uncertain"),
    }), Error);
  assertEquals(told, ["uncertain"]);
  assert(links.every((link) => link.uncertainAt === sequence.tried));
  await sequence.settle();
  const told2: number[] = [];
  await writeClicks(sequence, { ...store, kv }, links, {
    onCommitted: (chunk) => void told2.push(chunk.length),
  });
  assertEquals(told2, [2], "told committed, the landed commit's journal standing for them");
  const parts = await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }));
  assertEquals(parts.flatMap((part) => readJournalClicks(part.value)), [
    links[0]!.id,
    1,
    links[1]!.id,
    1,
  ]);
});

Deno.test("figures fall due within the lag, the spread of it by id, or past the bound", () => {
  const book = new FigureBook(60_000, Infinity);
  const links = visits(200);
  for (const link of links) book.add(link, partOf(), 1_000);
  book.add(links[0]!, partOf(), 5_000); // a later visit joins the same figures
  assertEquals(book.size, 200);
  assertEquals(book.take(30_999).length, 0, "none is due before half the lag");
  const due = book.take(61_000);
  assertEquals(due.length, 200, "every one is due within the lag");
  assertEquals(due[0]!.clicks, 2);
  const halfway = book.take(46_000).length;
  assert(halfway > 40 && halfway < 160, `${halfway} due halfway: spread over the second half`);
  const bounded = new FigureBook(60_000, 0);
  const part = partOf(2);
  bounded.add(links[0]!, part, 0);
  bounded.add(links[0]!, part, 0);
  assertEquals(bounded.take(0).length, 1, "past the bound in bytes, due at once");
  assert(bounded.bytes > 0);
  bounded.done(bounded.take(0)[0]!);
  assertEquals([bounded.size, bounded.bytes], [0, 0]);
  assertEquals(bounded.takeSpent(), [], "a part is spent once each of its links is written");
  bounded.spend(part, 1);
  assertEquals(bounded.takeSpent(), [part.key]);
});

Deno.test("figures add a link's day, breakdown and rank to its record, with the totals", async () => {
  await using store = await memoryStore();
  const links = visits(3);
  for (const link of links) await store.kv.set(linkStatsKey(link.id), newLinkStats(null));
  const [gone] = visits(1).map((link) => ({ ...link, id: "gone" }));
  const written: number[] = [];
  const touched = new Map();
  await writeFigures(new CommitSequence(store), store, figuresOf([...links, gone!]), {
    touched,
    onWritten: (_, outcome) => written.push(outcome.clicks, outcome.dropped),
    onRefused: () => {},
  });
  assertEquals(written, [3, 1]);
  assertEquals(await tally(store, CLICK_TALLY), 3);
  assertEquals(await tally(store, DAY_CLICK_TALLY, "2026-11-23"), 3);
  assertEquals(await tally(store, REFERRER_TALLY, "site0.example"), 3);
  assert(touched.size >= 3, "the ranked names are told");
  const stored = await store.kv.get<LinkStats>(linkStatsKey(links[0]!.id));
  assertEquals(stored.value?.shares[DAY_CLICK_TALLY]?.["2026-11-23"], 1);
  assertEquals((await store.kv.get(linkStatsKey("gone"))).value, null, "a gone link stays gone");
});

Deno.test("a chunk the store refuses for its size is written in halves, each told of", async () => {
  await using store = await memoryStore();
  // Forty links whose stored figures are large (100 referring hosts of some 250 characters
  // each): together over the 800 KiB one commit may write, each well within a record's 64 KiB.
  const links = visits(40);
  for (const link of links) {
    const stats: LinkStats = newLinkStats(null);
    stats.shares[REFERRER_TALLY] = Object.fromEntries(
      Array.from({ length: 100 }, (_, r) => [`${"r".repeat(240)}${r}.example`, 1]),
    );
    await store.kv.set(linkStatsKey(link.id), stats);
  }
  const committed: number[] = [];
  await writeFigures(new CommitSequence(store), store, figuresOf(links), {
    perCommit: 40,
    touched: new Map(),
    onWritten: (chunk, part) => {
      committed.push(chunk.length);
      assertEquals(part.clicks, chunk.length);
    },
    onRefused: (link) => {
      throw new Error(`${link.slug} refused`);
    },
  });
  assert(committed.length > 1, `written as ${committed.length} commit(s)`);
  assertEquals(committed.reduce((a, b) => a + b, 0), 40);
  assertEquals(await tally(store, CLICK_TALLY), 40);
  const stored = await store.kv.get<LinkStats>(linkStatsKey(links[39]!.id));
  assertEquals(stored.value?.shares[CLICK_TALLY]?.[""], 1);
  assertEquals(Object.keys(stored.value?.shares[REFERRER_TALLY] ?? {}).length, 101);
});

Deno.test("a link whose figures the store cannot take even alone loses its visits, not the flush", async () => {
  await using store = await memoryStore();
  const links = visits(3);
  for (const link of links) await store.kv.set(linkStatsKey(link.id), newLinkStats(null));
  // The middle link's figures: as many days as a record holds, so that one more day is too many
  // (a record can grow so only by a fault, or from an older writer).
  const days: Record<string, number> = {};
  const big: LinkStats = newLinkStats(null);
  big.shares[DAY_CLICK_TALLY] = days;
  for (let day = 0;; day++) {
    days[`2000-01-${String(day).padStart(6, "0")}`] = 1;
    try {
      await store.kv.set(linkStatsKey(links[1]!.id), big);
    } catch {
      delete days[`2000-01-${String(day).padStart(6, "0")}`];
      break;
    }
  }
  const refused: string[] = [];
  let dropped = 0;
  await writeFigures(new CommitSequence(store), store, figuresOf(links), {
    touched: new Map(),
    onWritten: (_, outcome) => dropped += outcome.dropped,
    onRefused: (link) => refused.push(link.slug),
  });
  assertEquals(dropped, 1);
  assertEquals(refused, [links[1]!.slug]);
  assertEquals(await tally(store, CLICK_TALLY), 2);
  const stored = await store.kv.get<LinkStats>(linkStatsKey(links[1]!.id));
  assertEquals(
    stored.value?.shares[CLICK_TALLY],
    undefined,
    "the big link's figures are as they were",
  );
});

Deno.test("the book counts its links' journaled clicks until a record read holds them", () => {
  const book = new FigureBook(1_000, Infinity);
  const [link] = visits(1);
  link!.clicks = 3;
  const part = partOf(1, 5);
  book.add(link!, part, 0);
  book.adopt(deltasOf(link!), partOf(1, 6), 0); // taken over: another writer's to count
  assertEquals(book.journaledClicks(link!.id, {}), 3);
  assertEquals(book.journaledClicks(link!.id, { w0: 4 }), 3);
  assertEquals(book.journaledClicks(link!.id, { w0: 5 }), 0, "its record holds them");
  book.done(book.take(0, true)[0]!);
  assertEquals(book.journaledClicks(link!.id, {}), 3, "a record read before the write landed");
  assertEquals(book.journaledClicks(link!.id, { w0: 6 }), 0);
  book.add(link!, partOf(1, 7), 0); // visits since, waiting again
  assertEquals(book.journaledClicks(link!.id, { w0: 6 }), 3);
  assertEquals(book.journaledClicks(link!.id, {}), 6, "a record read before both writes");
  book.take(10_000);
  assertEquals(book.journaledClicks(link!.id, {}), 6, "kept 10 s");
  book.take(10_001);
  assertEquals(book.journaledClicks(link!.id, {}), 3, "then only what waits counts");
});
