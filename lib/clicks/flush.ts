/**
 * Writing buffered visits at two cadences: each second a link's clicks as one `sum` on its
 * counter; once per `STATS_LAG_SECONDS` its figures record with the service-wide tallies, in one
 * commit per chunk (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import {
  COMMIT_LIMITS,
  type CommitCost,
  groupsWithin,
  KEY_BYTES_BUDGET,
  LINK_KEY_BYTES,
  nameKeyBytes,
} from "../kv/commit_size.ts";
import { getManyChunked } from "../kv/get_many.ts";
import { linkClicksKey, linkRankKey, linkStatsKey, tallyKey } from "../kv/keys.ts";
import { isTooLarge } from "../kv/guard.ts";
import type { Store } from "../kv/store.ts";
import {
  CLICKS,
  COUNTRIES,
  DAY_CLICKS,
  DEVICES,
  RANKED_KINDS,
  REFERRERS,
  tallyNameKey,
} from "../tallies/kinds.ts";
import type { RankedName } from "../tallies/rank.ts";
import { addShare, clicksOf, OTHER_REFERRERS, readLinkStats } from "../tallies/shares.ts";
import { SLICE_MS, yieldToLoop } from "./classify.ts";
import type { CommitSequence } from "./sequence.ts";

/** One link's visits of one flush, classified and summed. */
export interface LinkVisits {
  slug: string;
  id: string;
  title: string;
  /** Clicks by people. */
  clicks: number;
  /** Visits by bots, which are no clicks. */
  bots: number;
  /** Time of the last click by a person (epoch ms), 0 when none. */
  lastUsedAt: number;
  /** UTC day of the visits. */
  day: string;
  /** Each visit as recorded (see {@linkcode VisitList}). */
  visits: VisitList;
  /**
   * The number of the last commit that carried these clicks and whose outcome is unknown;
   * absent when none was. Its sums are skipped when the sequence finds it landed.
   */
  uncertainAt?: number;
}

/** What a flush wrote. */
export interface FlushOutcome {
  /** Clicks by people written. */
  clicks: number;
  /** Bot visits written. */
  bots: number;
  /** Visits dropped: their link was gone by then, or its figures too large to write. */
  dropped: number;
}

/**
 * A link's visits in the order they came, {@linkcode VISIT_STRIDE} entries each: its device
 * class, referring host and country, the last two empty for a bot. A list, not counts: pushing
 * three names costs a visit less than counting them in maps made anew for each link each
 * second, which were most of what the old generation collected (docs/benchmarks.md).
 */
export type VisitList = string[];

/** Entries a visit takes in a {@linkcode VisitList}. */
export const VISIT_STRIDE = 3;

/** Most links one commit of clicks takes: a `sum` each, within the store's 1,000 mutations. */
export const CLICKS_PER_COMMIT = 250;

// Fewest links a commit of clicks takes, and the commits a flush is kept within by taking more.
const FEWEST_CLICKS_PER_COMMIT = 100;
const CLICKS_COMMITS = 100;

/**
 * Links a commit of clicks takes when a batch has `links` to write. A commit holds the core the
 * requests share for some 10 µs a link (its encoding, then the store's thread), so 100 links
 * keep each wait near 1 ms; past 10,000 links, commits grow toward 250 so that a batch takes
 * some 100 commits and its clicks stay within 2 s (docs/decisions/2026-11-28-click-layout.md).
 */
export function clicksPerCommit(links: number): number {
  const even = Math.ceil(links / CLICKS_COMMITS);
  return Math.min(CLICKS_PER_COMMIT, Math.max(FEWEST_CLICKS_PER_COMMIT, even));
}

/** Options of {@linkcode writeClicks}. */
export interface WriteClicksOptions {
  /** Links a commit takes at most; default {@linkcode CLICKS_PER_COMMIT}. */
  perCommit?: number;
  /** Told of each chunk as its clicks are in the store (landed now or by an earlier commit). */
  onCommitted(chunk: LinkVisits[], outcome: FlushOutcome): void;
  /** Told of a chunk whose commit threw; each link's `uncertainAt` is set by then. */
  onUncertain?(chunk: LinkVisits[]): void;
}

/**
 * Adds each link's clicks by people to its counter, `perCommit` links a commit, taking links
 * from their iterator only as chunks need them. A link whose clicks a commit of unknown outcome
 * carried is skipped when `sequence` found that commit landed. Throws on a store failure; chunks
 * committed before stay committed, and `onCommitted` has been told.
 */
export async function writeClicks(
  sequence: CommitSequence,
  store: Store,
  links: Iterable<LinkVisits>,
  options: WriteClicksOptions,
): Promise<FlushOutcome> {
  const total: FlushOutcome = { clicks: 0, bots: 0, dropped: 0 };
  const perCommit = options.perCommit ?? CLICKS_PER_COMMIT;
  const taken = links[Symbol.iterator]();
  // The next link is taken as a chunk fills, so a chunk is known whole once the one after it is
  // taken. Taking a link summarizes it (the caller's iterator), so the event loop gets a turn
  // every few ms of that: a second of many distinct visitors never holds it for a chunk's worth.
  let next = taken.next();
  let sliceStart = performance.now();
  while (!next.done) {
    const chunk: LinkVisits[] = [];
    while (!next.done && chunk.length < perCommit) {
      chunk.push(next.value);
      next = taken.next();
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
    const summed = chunk.filter((link) => link.clicks > 0 && !sequence.landed(link.uncertainAt));
    while (summed.length > 0) {
      const atomic = store.kv.atomic();
      for (const link of summed) atomic.sum(linkClicksKey(link.id), BigInt(link.clicks));
      try {
        if (await sequence.commit(atomic) === "landed") break;
      } catch (error) {
        for (const link of summed) link.uncertainAt = sequence.tried;
        options.onUncertain?.(chunk);
        throw error;
      }
    }
    const outcome = { clicks: 0, bots: 0, dropped: 0 };
    for (const link of chunk) {
      outcome.clicks += link.clicks;
      outcome.bots += link.bots;
    }
    total.clicks += outcome.clicks;
    total.bots += outcome.bots;
    options.onCommitted(chunk, outcome);
    sliceStart = performance.now();
  }
  return total;
}

/** A link's visits waiting for the slower cadence: all but its clicks' counter. */
export interface LinkFigures {
  slug: string;
  id: string;
  title: string;
  /** Clicks by people. */
  clicks: number;
  /** Time of the last click by a person (epoch ms), 0 when none. */
  lastUsedAt: number;
  /** Clicks by people per UTC day. */
  days: Map<string, number>;
  referrers: Map<string, number>;
  /** Visits per device class, bots included. */
  devices: Map<string, number>;
  countries: Map<string, number>;
  /** When it is to be written (epoch ms). */
  dueAt: number;
  /** When its first visit waiting was added (epoch ms). */
  since: number;
  /** An estimate of the memory it takes, in bytes. */
  bytes: number;
  /** The number of the last commit that carried it and whose outcome is unknown. */
  uncertainAt?: number;
}

// A generous estimate of what a waiting link and each name it counts hold in memory.
const FIGURES_BYTES = 400;
const NAME_BYTES = 80;

/**
 * What the slower cadence has still to write, link by link, added to as each second's clicks
 * are committed. A link is due `lagMs` after its first visit waiting, a little sooner by a
 * share of its id, so links first clicked in the same second are not all due in the same
 * second after. Bounded by bytes: past `maxBytes`, the links waiting longest fall due at once.
 */
export class FigureBook {
  #links = new Map<string, LinkFigures>();
  #bytes = 0;
  #lagMs: number;
  #maxBytes: number;

  /** A book whose links are due within `lagMs`, holding about `maxBytes` at most. */
  constructor(lagMs: number, maxBytes: number) {
    this.#lagMs = lagMs;
    this.#maxBytes = maxBytes;
  }

  /** Links waiting. */
  get size(): number {
    return this.#links.size;
  }

  /** The estimated memory the links waiting take, in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** When the link waiting longest was first visited (epoch ms); Infinity when none waits. */
  get oldest(): number {
    return this.#links.values().next().value?.since ?? Infinity;
  }

  /** Adds the visits of `link` whose clicks are in the store, at `now`. */
  add(link: LinkVisits, now: number): void {
    let figures = this.#links.get(link.id);
    if (figures === undefined) {
      figures = {
        slug: link.slug,
        id: link.id,
        title: link.title,
        clicks: 0,
        lastUsedAt: 0,
        days: new Map(),
        referrers: new Map(),
        devices: new Map(),
        countries: new Map(),
        dueAt: now + this.#lagMs - Math.floor(this.#lagMs * spreadOf(link.id)),
        since: now,
        bytes: FIGURES_BYTES,
      };
      this.#links.set(link.id, figures);
      this.#bytes += FIGURES_BYTES;
    }
    const before = figures.bytes;
    figures.clicks += link.clicks;
    figures.lastUsedAt = Math.max(figures.lastUsedAt, link.lastUsedAt);
    if (link.clicks > 0) figures.bytes += addTo(figures.days, link.day, link.clicks);
    const visits = link.visits;
    for (let i = 0; i < visits.length; i += VISIT_STRIDE) {
      const device = visits[i]!;
      figures.bytes += addTo(figures.devices, device, 1);
      if (device === "bot") continue;
      figures.bytes += addTo(figures.referrers, visits[i + 1]!, 1);
      figures.bytes += addTo(figures.countries, visits[i + 2]!, 1);
    }
    this.#bytes += figures.bytes - before;
  }

  /**
   * The links to write at `now`, in the order of their ids (the order of their records in the
   * store): every one when `all`, else those due, and the longest waiting past the bound.
   */
  take(now: number, all = false): LinkFigures[] {
    const due: LinkFigures[] = [];
    let over = this.#bytes - this.#maxBytes;
    for (const figures of this.#links.values()) {
      if (all || figures.dueAt <= now || over > 0) {
        due.push(figures);
        over -= figures.bytes;
      }
    }
    return due.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  }

  /** Forgets `figures`, written (or dropped). */
  delete(figures: LinkFigures): void {
    if (this.#links.get(figures.id) !== figures) return;
    this.#links.delete(figures.id);
    this.#bytes -= figures.bytes;
  }

  /**
   * After `sequence` has settled: links whose figures a commit of unknown outcome carried are
   * forgotten when it landed, their ranked names gathered in `touched`, and written again
   * otherwise. Run before any visit is added, so none joins a commit that may have landed.
   */
  settle(sequence: CommitSequence, touched: Map<string, RankedName>): void {
    for (const figures of [...this.#links.values()]) {
      if (figures.uncertainAt === undefined) continue;
      if (sequence.landed(figures.uncertainAt)) {
        for (const name of rankedNamesOf(figures)) {
          touched.set(tallyNameKey(name.kind, name.name), name);
        }
        this.delete(figures);
      } else {
        delete figures.uncertainAt;
      }
    }
  }
}

/** A share of the lag, from 0 to 1/2, that `id` is written sooner by. */
function spreadOf(id: string): number {
  let hash = 0;
  for (let i = id.length - 1; i >= Math.max(0, id.length - 6); i--) {
    hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  }
  return (hash % 1000) / 2000;
}

/** Adds `count` under `name`; the bytes a new name takes. */
function addTo(counts: Map<string, number>, name: string, count: number): number {
  const had = counts.get(name);
  counts.set(name, (had ?? 0) + count);
  return had === undefined ? NAME_BYTES + name.length * 2 : 0;
}

/** Options of {@linkcode writeFigures}. */
export interface WriteFiguresOptions {
  /** Gathers the ranked names whose counts changed, for `rerank` after. */
  touched: Map<string, RankedName>;
  /** Told of each chunk as it is written, with what it wrote. */
  onWritten(chunk: LinkFigures[], outcome: FlushOutcome): void;
  /** Told of a link whose figures the store refuses even alone: its visits are dropped. */
  onRefused(link: LinkFigures, error: unknown): void;
  /** Asked between chunks: true stops the writing there, the rest left for later. */
  enough?(): boolean;
  /** Links a commit takes at most; default {@linkcode FIGURES_PER_COMMIT}. */
  perCommit?: number;
}

// A link's part of a figures commit, besides its names: a check, its record, its rank (two),
// its day's clicks and the clicks' sums, its counter's delete.
const LINK_MUTATIONS = 6;
// Links a figures commit takes at most: a commit holds the core the requests share while it is
// encoded and written, and commits of ten make half the long waits forty did (docs/benchmarks.md).
export const FIGURES_PER_COMMIT = 10;

/**
 * Writes the figures of `links`, a chunk at a time: each chunk reads its links' records, adds
 * the visits to them and commits them with the service-wide sums, checked against what it read,
 * read again when another writer moved first. A link whose record is gone (removed, expired and
 * swept) loses its visits, and its counter goes with it. Throws on a store failure; chunks
 * written before stay written, and `onWritten` has been told.
 */
export async function writeFigures(
  sequence: CommitSequence,
  store: Store,
  links: LinkFigures[],
  options: WriteFiguresOptions,
): Promise<void> {
  const limits = { ...COMMIT_LIMITS, keyBytes: KEY_BYTES_BUDGET };
  const perCommit = options.perCommit ?? FIGURES_PER_COMMIT;
  for (const chunk of groupsWithin(links, costOfFigures, limits, perCommit)) {
    await writeFiguresChunk(sequence, store, chunk, options);
    if (options.enough?.()) return;
  }
}

/** A link's part of a figures commit: a check, its writes, and a sum keyed by each name. */
function costOfFigures(link: LinkFigures): CommitCost {
  let keyBytes = LINK_KEY_BYTES;
  let mutations = LINK_MUTATIONS;
  for (const names of [link.days, link.referrers, link.devices, link.countries]) {
    for (const name of names.keys()) {
      keyBytes += nameKeyBytes(name);
      mutations++;
    }
  }
  return { checks: 1, mutations, keyBytes };
}

/**
 * One chunk's commit, built afresh while another writer moves first. A chunk the store refuses
 * for its size is written as two halves, down to a single link, whose visits are then dropped.
 */
async function writeFiguresChunk(
  sequence: CommitSequence,
  store: Store,
  chunk: LinkFigures[],
  options: WriteFiguresOptions,
): Promise<void> {
  for (;;) {
    let built: BuiltFigures;
    let answer: "landed" | "refused";
    try {
      built = await buildFigures(store, chunk);
      answer = await sequence.commit(built.atomic);
    } catch (error) {
      if (!isTooLarge(error)) {
        for (const link of chunk) link.uncertainAt = sequence.tried;
        throw error;
      }
      if (chunk.length === 1) {
        const link = chunk[0]!;
        options.onRefused(link, error);
        options.onWritten(chunk, { clicks: 0, bots: 0, dropped: visitsOf(link) });
        return;
      }
      const half = Math.ceil(chunk.length / 2);
      await writeFiguresChunk(sequence, store, chunk.slice(0, half), options);
      await writeFiguresChunk(sequence, store, chunk.slice(half), options);
      return;
    }
    if (answer === "refused") continue; // another writer moved first: read again
    for (const { kind, name } of built.sums.values()) {
      if (RANKED_KINDS.has(kind)) options.touched.set(tallyNameKey(kind, name), { kind, name });
    }
    options.onWritten(chunk, built.outcome);
    return;
  }
}

/** A figures commit ready to go. */
interface BuiltFigures {
  atomic: Deno.AtomicOperation;
  sums: Map<string, { kind: string; name: string; count: number }>;
  outcome: FlushOutcome;
}

/** Reads the chunk's records and builds the commit that adds its visits to them. */
async function buildFigures(store: Store, chunk: LinkFigures[]): Promise<BuiltFigures> {
  const entries = await getManyChunked(store.kv, chunk.map((link) => linkStatsKey(link.id)));
  const atomic = store.kv.atomic();
  const sums = new Map<string, { kind: string; name: string; count: number }>();
  const add = (kind: string, name: string, count: number) => {
    const key = tallyNameKey(kind, name);
    const sum = sums.get(key);
    if (sum) sum.count += count;
    else sums.set(key, { kind, name, count });
  };
  const outcome: FlushOutcome = { clicks: 0, bots: 0, dropped: 0 };
  chunk.forEach((link, i) => {
    const entry = entries[i]!;
    if (entry.value === null) {
      // Retired: its share is out of every figure already, and its counter goes too (a sum
      // of this second may have made it again after the retirement deleted it).
      outcome.dropped += visitsOf(link);
      atomic.check(entry).delete(linkClicksKey(link.id));
      return;
    }
    outcome.clicks += link.clicks;
    outcome.bots += link.devices.get("bot") ?? 0;
    const stats = readLinkStats(entry.value);
    const before = BigInt(clicksOf(stats));
    if (link.clicks > 0) {
      add(CLICKS, addShare(stats, CLICKS, "", link.clicks), link.clicks);
      for (const [day, count] of link.days) {
        add(DAY_CLICKS, addShare(stats, DAY_CLICKS, day, count), count);
      }
      stats.lastUsedAt = Math.max(stats.lastUsedAt ?? 0, link.lastUsedAt);
      if (before > 0n) atomic.delete(linkRankKey(before, link.id));
      atomic.set(linkRankKey(before + BigInt(link.clicks), link.id), {
        slug: link.slug,
        title: link.title,
      });
    }
    for (const [kind, counts] of breakdownsOf(link)) {
      for (const [name, count] of counts) add(kind, addShare(stats, kind, name, count), count);
    }
    atomic.check(entry).set(entry.key, stats);
  });
  for (const { kind, name, count } of sums.values()) {
    atomic.sum(tallyKey(kind, name), BigInt(count));
  }
  return { atomic, sums, outcome };
}

/** Every visit of `link`, by people and bots. */
function visitsOf(link: { clicks: number; devices: Map<string, number> }): number {
  return link.clicks + (link.devices.get("bot") ?? 0);
}

/** The link's visits by name, per ranked kind: referrers, devices, countries. */
function breakdownsOf(link: LinkFigures): [kind: string, counts: Map<string, number>][] {
  return [[REFERRERS, link.referrers], [DEVICES, link.devices], [COUNTRIES, link.countries]];
}

/**
 * The ranked names `link`'s visits may have been counted under: a referrer past the link's
 * limit was counted as `other`, so that is one too.
 */
function rankedNamesOf(link: LinkFigures): RankedName[] {
  const names: RankedName[] = [];
  for (const [kind, counts] of breakdownsOf(link)) {
    for (const name of counts.keys()) names.push({ kind, name });
  }
  if (link.referrers.size > 0) names.push({ kind: REFERRERS, name: OTHER_REFERRERS });
  return names;
}
