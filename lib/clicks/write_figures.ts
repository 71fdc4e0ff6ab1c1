/**
 * The slower writer: once per `STATS_LAG_SECONDS`, each link's figures into its record with the
 * service-wide tallies, in one commit per chunk that checks each record it read, and marks the
 * journal parts it folded (docs/decisions/2026-11-28-click-layout.md).
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
import { linkRankKey, linkStatsKey, tallyKey } from "../kv/keys.ts";
import { isTooLarge } from "../kv/guard.ts";
import type { Store } from "../kv/store.ts";
import { CLICK_TALLY, DAY_CLICK_TALLY, RANKED_KINDS, tallyNameKey } from "../tallies/kinds.ts";
import type { RankedName } from "../tallies/rank.ts";
import { addShare, clicksOf, type LinkStats, readLinkStats } from "../tallies/shares.ts";
import { breakdownsOf, type WaitingFigures } from "./book.ts";
import { JOURNAL_KEPT_MS, type JournalPart } from "./journal.ts";
import type { CommitSequence } from "./sequence.ts";
import { type FlushOutcome, visitsOf } from "./visits.ts";

/** Options of {@linkcode writeFigures}. */
export interface WriteFiguresOptions {
  /** Gathers the ranked names whose counts changed, for `rerank` after. */
  touched: Map<string, RankedName>;
  /** Told of each chunk as it is written, with what it wrote. */
  onWritten(chunk: WaitingFigures[], outcome: FlushOutcome): void;
  /** Told of a link whose figures the store refuses even alone: its visits are dropped. */
  onRefused(link: WaitingFigures, error: unknown): void;
  /** Asked between chunks: true stops the writing there, the rest left for later. */
  enough?(): boolean;
  /** Links a commit takes at most; default {@linkcode FIGURES_PER_COMMIT}. */
  perCommit?: number;
}

// A link's part of a figures commit, besides its names: a check, its record, its rank (two),
// its day's clicks and the clicks' sums, with a mutation to spare.
const LINK_MUTATIONS = 6;
// Links a figures commit takes at most: a commit holds the core the requests share while it is
// encoded and written, and commits of ten make half the long waits forty did (docs/benchmarks.md).
export const FIGURES_PER_COMMIT = 10;

/**
 * Writes the figures of `links`, a chunk at a time: each chunk reads its links' records, adds
 * the visits to them and commits them with the service-wide sums, checked against what it read,
 * read again when another writer moved first. A link whose record is gone (removed, expired and
 * swept) loses its visits. Throws on a store failure; chunks
 * written before stay written, and `onWritten` has been told.
 */
export async function writeFigures(
  sequence: CommitSequence,
  store: Store,
  links: WaitingFigures[],
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
function costOfFigures(link: WaitingFigures): CommitCost {
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
  chunk: WaitingFigures[],
  options: WriteFiguresOptions,
): Promise<void> {
  for (;;) {
    // A writer taken over gives its links up: the taker writes them from the journal.
    chunk = chunk.filter((link) => !link.abandoned);
    if (chunk.length === 0) return;
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
    if (answer === "refused") continue; // another writer moved first, or took this one over
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
async function buildFigures(store: Store, chunk: WaitingFigures[]): Promise<BuiltFigures> {
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
      // Retired: its share is out of every figure already.
      outcome.dropped += visitsOf(link);
      return;
    }
    outcome.clicks += link.clicks;
    outcome.bots += link.bots;
    const stats = readLinkStats(entry.value);
    const before = BigInt(clicksOf(stats));
    if (link.clicks > 0) {
      add(CLICK_TALLY, addShare(stats, CLICK_TALLY, "", link.clicks), link.clicks);
      for (const [day, count] of link.days) {
        add(DAY_CLICK_TALLY, addShare(stats, DAY_CLICK_TALLY, day, count), count);
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
    markFolded(stats, link.parts, store.now());
    atomic.check(entry).set(entry.key, stats);
  });
  for (const { kind, name, count } of sums.values()) {
    atomic.sum(tallyKey(kind, name), BigInt(count));
  }
  return { atomic, sums, outcome };
}

// A writer's mark stays two days, past the day its journal is kept.
const MARKS_KEPT_MS = 2 * JOURNAL_KEPT_MS;

/** Marks the journal `parts` folded into `stats`, forgetting marks older than any journal. */
function markFolded(stats: LinkStats, parts: JournalPart[], now: number): void {
  const marks: Record<string, number> = stats.folded ?? Object.create(null);
  for (const [writer, commit] of Object.entries(marks)) {
    if (commit < now - MARKS_KEPT_MS) delete marks[writer];
  }
  for (const part of parts) marks[part.writer] = Math.max(marks[part.writer] ?? 0, part.commit);
  stats.folded = marks;
}
