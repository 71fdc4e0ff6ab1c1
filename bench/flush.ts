/**
 * The CPU a flush spends per link, apart from the redirect: a second's clicks, a link's figures
 * and the buffer's whole flush, on a 1,000- and a 100,000-link store; beside them, one commit
 * of a single sum; and a busy instance's journal read whole by a new one and taken over by a
 * survivor. The clicks and the figures are of browser visits, classified as the redirect
 * classifies them (`bench/_traffic.ts`): a second's at a link of a busy service, and a lag
 * period's, whose countries, referrers and devices make the record a figures write rewrites.
 * @module
 */
import process from "node:process";
import { FigureBook } from "../lib/clicks/book.ts";
import { Adopter } from "../lib/clicks/adopt.ts";
import { OtherJournals } from "../lib/clicks/journaled.ts";
import { type LinkVisits, VISIT_STRIDE } from "../lib/clicks/visits.ts";
import { writeClicks } from "../lib/clicks/write_clicks.ts";
import { writeFigures } from "../lib/clicks/write_figures.ts";
import { CommitSequence } from "../lib/clicks/sequence.ts";
import { getManyChunked } from "../lib/kv/get_many.ts";
import { linkKey } from "../lib/kv/keys.ts";
import type { Store } from "../lib/kv/store.ts";
import { pause } from "../lib/pause.ts";
import { ClickBuffer } from "../lib/clicks/buffer.ts";
import { VisitClassifier } from "../lib/clicks/classify.ts";
import { loadGeoipLookup } from "../lib/clicks/geoip.ts";
import type { DatedLinkRecord } from "../lib/links/mod.ts";
import { dayOf } from "../lib/tallies/kinds.ts";
import { fixed, freshStore, printTable, seedLinksFast, spreadPaths } from "./_lib.ts";
import { BROWSER_UA, median } from "./_wrk.ts";
import { BROWSER_USER_AGENTS, newClients, REFERRERS, shuffled } from "./_traffic.ts";

// Visits a link gets in a second of a busy service (10,000 links at 60,000 a second), and in a
// lag period of one a second: a journal line's, and a figures write's.
const VISITS_A_SECOND = 6;
const VISITS_A_LAG = 60;

// A busy instance's journal a new one reads first: a lag period's seconds of 10,000 links each.
const BACKLOG_SECONDS = 60;
const BACKLOG_LINKS = 10_000;

// Flushes run before the measured ones, whose figures are left out.
const WARM_UP_FLUSHES = 3;

/** Options of {@linkcode benchFlush}. */
export interface FlushBenchOptions {
  /** Stored links per scenario; default 1k and 100k. */
  sizes?: number[];
  /** Links a flush writes; default 1,000. */
  links?: number;
  /** Measured flushes per figure, after three to warm up; default 15. */
  rounds?: number;
}

/** Runs the flushes and prints what they cost. */
export async function benchFlush(options: FlushBenchOptions = {}): Promise<void> {
  const sizes = options.sizes ?? [1_000, 100_000];
  const count = options.links ?? 1_000;
  const rounds = options.rounds ?? 15;
  console.log(
    `\n## Click flush: CPU of the whole process per link written, ${count.toLocaleString("en")} ` +
      `links a flush, median of ${rounds} flushes; browser visits, ${VISITS_A_SECOND} a link ` +
      `for its clicks, ${VISITS_A_LAG} for its figures, one for the buffer's flush\n`,
  );
  const visits = await browserVisits();
  const rows: (string | number)[][] = [];
  const commits: (string | number)[][] = [];
  for (const size of sizes) {
    await using store = await freshStore();
    const slugs = spreadPaths(await seedLinksFast(store, size), count).map((path) => path.slice(1));
    const links = await linksOf(store, slugs);
    const orders = [["store", links], ["shuffled", shuffled(links)]] as const;
    for (const [order, ordered] of orders) {
      const at = size.toLocaleString("en");
      rows.push([
        at,
        "clicks: a journal line a link",
        order,
        ...shown(await clickWrites(store, ordered, visits, rounds)),
      ]);
      rows.push([
        at,
        "figures: a record a link",
        order,
        ...shown(await figureWrites(store, ordered, visits, rounds)),
      ]);
      rows.push([
        at,
        "buffer: both, classified",
        order,
        ...shown(await bufferFlushes(store, ordered, rounds)),
      ]);
    }
    const commit = await sumCommits(store, 500);
    commits.push([size.toLocaleString("en"), fixed(commit.cpu, 1), fixed(commit.wall, 1)]);
  }
  printTable(["stored links", "written", "visit order", "CPU µs a link", "flush ms"], rows);
  console.log("\nOne commit of a single sum, the least a commit costs:\n");
  printTable(["stored links", "CPU µs", "wall µs"], commits);
  console.log(
    `\nA busy instance's journal, ${BACKLOG_SECONDS} s of ${BACKLOG_LINKS.toLocaleString("en")} ` +
      `links a second (${(BACKLOG_SECONDS * BACKLOG_LINKS).toLocaleString("en")} lines), read ` +
      "whole by a new instance, and taken over by a survivor once it falls silent; the event " +
      "loop's longest wait is a 1 ms timer's longest gap meanwhile\n",
  );
  const backlog = await backlogReadings(visits);
  printTable(
    ["read by", "readings", "ms", "CPU ms", "event loop's longest wait ms"],
    backlog.map((one) => [
      one.by,
      one.readings,
      fixed(one.ms, 0),
      fixed(one.cpuMs, 0),
      fixed(one.longestWaitMs, 1),
    ]),
  );
}

async function linksOf(store: Store, slugs: string[]): Promise<DatedLinkRecord[]> {
  const entries = await getManyChunked(store.kv, slugs.map(linkKey));
  return entries.map((entry) => entry.value as DatedLinkRecord);
}

/**
 * Browser visits as the redirect keeps them, three names each: one of forty User-Agents, one of
 * ten referrers or none, and a new public client address, each classified.
 */
async function browserVisits(): Promise<string[]> {
  const classifier = new VisitClassifier(await loadGeoipLookup());
  const visits: string[] = [];
  newClients(10_007).forEach((client, i) => {
    const userAgent = BROWSER_USER_AGENTS[i % BROWSER_USER_AGENTS.length]!;
    const referer = REFERRERS[(i * 7) % REFERRERS.length]!;
    visits.push(
      classifier.device(userAgent),
      classifier.referrer(referer),
      classifier.country("", client) ?? "unknown",
    );
  });
  return visits;
}

/** `each` visits to each link, as a flush writes them, drawn in turn from `visits`. */
function visitsOf(
  links: DatedLinkRecord[],
  now: number,
  visits: string[],
  each: number,
): LinkVisits[] {
  let next = 0;
  return links.map((link) => {
    const own: string[] = [];
    for (let i = 0; i < each; i++) {
      if (next >= visits.length) next = 0;
      own.push(...visits.slice(next, next + VISIT_STRIDE));
      next += VISIT_STRIDE;
    }
    return {
      slug: link.slug,
      id: link.id,
      title: link.title,
      clicks: each,
      bots: 0,
      lastUsedAt: now,
      day: dayOf(now),
      visits: own,
    };
  });
}

interface FlushFigures {
  /** CPU of the whole process per link, µs. */
  cpuPerLink: number;
  /** Wall time of one flush, ms. */
  wallMs: number;
}

function shown(figures: FlushFigures): string[] {
  return [fixed(figures.cpuPerLink, 1), fixed(figures.wallMs, 1)];
}

/** The median of `rounds` runs of `flush`, after three to warm up (the store's cache, the JIT). */
async function measure(rounds: number, flush: () => Promise<void>): Promise<FlushFigures> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let round = 0; round < WARM_UP_FLUSHES + rounds; round++) {
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    await flush();
    const used = process.cpuUsage(cpuBefore);
    if (round < WARM_UP_FLUSHES) continue;
    cpu.push(used.user + used.system);
    wall.push(performance.now() - start);
  }
  return { cpuPerLink: median(cpu), wallMs: median(wall) };
}

/** The buffer's flush of one browser visit to each link, recorded in the order given. */
async function bufferFlushes(
  store: Store,
  links: DatedLinkRecord[],
  rounds: number,
): Promise<FlushFigures> {
  const buffer = new ClickBuffer(store, {
    flushThreshold: Number.MAX_SAFE_INTEGER,
    log: (message, error) => console.error(message, error),
  });
  const figures = await measure(rounds, () => {
    for (const link of links) buffer.recordVisit(link, BROWSER_UA, "", "127.0.0.1", "");
    return buffer.flush();
  });
  return { ...figures, cpuPerLink: figures.cpuPerLink / links.length };
}

/** The links' clicks written by `writeClicks` alone, in the order given. */
async function clickWrites(
  store: Store,
  links: DatedLinkRecord[],
  visits: string[],
  rounds: number,
): Promise<FlushFigures> {
  const sequence = new CommitSequence(store);
  const second = visitsOf(links, store.now(), visits, VISITS_A_SECOND);
  const figures = await measure(rounds, async () => {
    await writeClicks(sequence, store, second, { onCommitted() {} });
  });
  return { ...figures, cpuPerLink: figures.cpuPerLink / links.length };
}

/** The links' figures written by `writeFigures` alone, in the order given. */
async function figureWrites(
  store: Store,
  links: DatedLinkRecord[],
  visits: string[],
  rounds: number,
): Promise<FlushFigures> {
  const sequence = new CommitSequence(store);
  // Each flush's book is made beforehand: the book counts visits as their clicks commit.
  const books = Array.from({ length: WARM_UP_FLUSHES + rounds }, () => {
    const book = new FigureBook(1_000, Infinity);
    const now = store.now();
    const part = { key: ["bench_journal"], writer: sequence.id, commit: now, left: links.length };
    for (const link of visitsOf(links, now, visits, VISITS_A_LAG)) book.add(link, part, now);
    return { book, now };
  });
  const figures = await measure(rounds, async () => {
    const { book, now } = books.pop()!;
    await writeFigures(sequence, store, book.take(now, true), {
      touched: new Map(),
      onWritten() {},
      onRefused() {},
    });
  });
  return { ...figures, cpuPerLink: figures.cpuPerLink / links.length };
}

async function sumCommits(store: Store, count: number): Promise<{ cpu: number; wall: number }> {
  const key = ["bench_flush_commit"];
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < count; i++) await store.kv.atomic().sum(key, 1n).commit();
  const used = process.cpuUsage(cpuBefore);
  const wall = (performance.now() - start) * 1000 / count;
  return { cpu: (used.user + used.system) / count, wall };
}

/** How one reader of a journal fared: its readings (or turns), their time, CPU and stalls. */
interface BacklogReading {
  by: string;
  readings: number;
  ms: number;
  cpuMs: number;
  longestWaitMs: number;
}

/**
 * A busy writer's lag period of journal, written as its flushes write it, then read whole by a
 * new instance's `OtherJournals`, and taken over by a survivor's `Adopter` once it falls silent.
 */
async function backlogReadings(visits: string[]): Promise<BacklogReading[]> {
  await using store = await freshStore();
  const slugs = spreadPaths(await seedLinksFast(store, BACKLOG_LINKS), BACKLOG_LINKS);
  const links = await linksOf(store, slugs.map((path) => path.slice(1)));
  const busy = new CommitSequence(store);
  for (let second = 0; second < BACKLOG_SECONDS; second++) {
    const clicked = visitsOf(links, store.now(), visits, VISITS_A_SECOND);
    await writeClicks(busy, store, clicked, { onCommitted() {} });
  }
  const expected = BACKLOG_SECONDS * links.length * VISITS_A_SECOND;
  const reader = new OtherJournals(store, 60_000, () => "bench_reader");
  const counted = () => links.reduce((sum, link) => sum + reader.clicksOf(link.id, {}), 0);
  // Each reads until it has everything, bounded: one that gained nothing would loop for ever.
  const read = await readingsUntil(
    "a new instance",
    () => reader.fresh(),
    () => counted() < expected,
  );
  const survivor = new Adopter(new CommitSequence(store), store, 0);
  const book = new FigureBook(60_000, Infinity);
  await survivor.turn(book); // hears the busy writer's key, silent from then on
  await pause(2);
  const taken = await readingsUntil(
    "a survivor's takeover",
    () => survivor.turn(book),
    () => survivor.reading || book.size === 0,
  );
  return [read, taken];
}

/** Runs `reading` while `more()` says so, a thousand times at most, timing it. */
async function readingsUntil(
  by: string,
  reading: () => Promise<void>,
  more: () => boolean,
): Promise<BacklogReading> {
  let longestWaitMs = 0;
  let last = performance.now();
  const watch = setInterval(() => {
    const now = performance.now();
    longestWaitMs = Math.max(longestWaitMs, now - last);
    last = now;
  }, 1);
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  let readings = 0;
  try {
    while (more() && readings < 1_000) {
      await reading();
      readings++;
    }
  } finally {
    clearInterval(watch);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    by,
    readings,
    ms: performance.now() - start,
    cpuMs: (cpu.user + cpu.system) / 1000,
    longestWaitMs,
  };
}
