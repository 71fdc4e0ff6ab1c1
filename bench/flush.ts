/**
 * The CPU a flush spends per link, apart from the redirect: a second's clicks, a link's figures
 * and the buffer's whole flush, on a 1,000- and a 100,000-link store; beside them, one commit
 * of a single sum.
 * @module
 */
import process from "node:process";
import { FigureBook } from "../lib/clicks/book.ts";
import type { LinkVisits } from "../lib/clicks/visits.ts";
import { writeClicks } from "../lib/clicks/write_clicks.ts";
import { writeFigures } from "../lib/clicks/write_figures.ts";
import { CommitSequence } from "../lib/clicks/sequence.ts";
import { getManyChunked } from "../lib/kv/get_many.ts";
import { linkKey } from "../lib/kv/keys.ts";
import type { Store } from "../lib/kv/store.ts";
import { ClickBuffer } from "../lib/clicks/buffer.ts";
import type { DatedLinkRecord } from "../lib/links/mod.ts";
import { dayOf } from "../lib/tallies/kinds.ts";
import { fixed, freshStore, printTable, seedLinksFast, spreadPaths } from "./_lib.ts";
import { BROWSER_UA, median } from "./_wrk.ts";

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
      `links a flush, one visitor each, median of ${rounds} flushes\n`,
  );
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
        ...shown(await clickWrites(store, ordered, rounds)),
      ]);
      rows.push([
        at,
        "figures: a record a link",
        order,
        ...shown(await figureWrites(store, ordered, rounds)),
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
}

async function linksOf(store: Store, slugs: string[]): Promise<DatedLinkRecord[]> {
  const entries = await getManyChunked(store.kv, slugs.map(linkKey));
  return entries.map((entry) => entry.value as DatedLinkRecord);
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** One person's visit to each link, as a flush writes it. */
function visitsOf(links: DatedLinkRecord[], now: number): LinkVisits[] {
  return links.map((link) => ({
    slug: link.slug,
    id: link.id,
    title: link.title,
    clicks: 1,
    bots: 0,
    lastUsedAt: now,
    day: dayOf(now),
    visits: ["desktop", "direct", "unknown"],
  }));
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
  for (let round = 0; round < rounds + 3; round++) {
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    await flush();
    const used = process.cpuUsage(cpuBefore);
    if (round < 3) continue;
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
  rounds: number,
): Promise<FlushFigures> {
  const sequence = new CommitSequence(store);
  const figures = await measure(rounds, async () => {
    await writeClicks(sequence, store, visitsOf(links, store.now()), { onCommitted() {} });
  });
  return { ...figures, cpuPerLink: figures.cpuPerLink / links.length };
}

/** The links' figures written by `writeFigures` alone, in the order given. */
async function figureWrites(
  store: Store,
  links: DatedLinkRecord[],
  rounds: number,
): Promise<FlushFigures> {
  const sequence = new CommitSequence(store);
  const figures = await measure(rounds, async () => {
    const book = new FigureBook(1_000, Infinity);
    const now = store.now();
    const part = { key: ["bench_journal"], writer: sequence.id, commit: now, left: links.length };
    for (const visits of visitsOf(links, now)) book.add(visits, part, now);
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
