/**
 * The per-second writer: what each link's visits add to its figures, its clicks among them, as
 * the commit's journal, in one commit per chunk of links
 * (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import type { Store } from "../kv/store.ts";
import { TimeSlices } from "../pause.ts";
import { addJournal, COMMIT_JOURNAL_BYTES, JournalLines, type JournalPart } from "./journal.ts";
import type { CommitSequence } from "./sequence.ts";
import type { FlushOutcome, LinkDeltas, LinkVisits } from "./visits.ts";

/** Most links one commit of clicks takes. */
export const CLICKS_PER_COMMIT = 500;

// Fewest links a commit of clicks takes, and the commits a flush is kept within by taking more.
const FEWEST_CLICKS_PER_COMMIT = 250;
const CLICKS_COMMITS = 100;

/**
 * Links a commit of clicks takes when a batch has `links` to write: 250, and past 25,000 links
 * up to 500, so that a batch takes some 100 commits and its clicks stay within 2 s. A commit
 * costs some 190 µs whatever it holds, and its journal a few µs a link
 * (docs/decisions/2026-11-28-click-layout.md).
 */
export function clicksPerCommit(links: number): number {
  const even = Math.ceil(links / CLICKS_COMMITS);
  return Math.min(CLICKS_PER_COMMIT, Math.max(FEWEST_CLICKS_PER_COMMIT, even));
}

/** A link's visits with the journal part its commit wrote them in. */
export interface CommittedLink {
  link: LinkVisits;
  /** The journal part that holds its figures until they are folded into its record. */
  part: JournalPart;
  /** What its line holds when the line was cut down to fit a part, else `null`. */
  cut: LinkDeltas | null;
}

/** Options of {@linkcode writeClicks}. */
export interface WriteClicksOptions {
  /** Links a commit takes at most; default {@linkcode CLICKS_PER_COMMIT}. */
  perCommit?: number;
  /**
   * Told of each chunk as its clicks are in the store (landed now or by an earlier commit); the
   * next chunk waits for what it returns.
   */
  onCommitted(chunk: CommittedLink[], outcome: FlushOutcome): void | Promise<void>;
  /** Told of a chunk whose commit threw; each link's `uncertainAt` is set by then. */
  onUncertain?(chunk: LinkVisits[]): void;
}

// What a link's last commit of unknown outcome wrote, kept until the outcome is known.
const tried = new WeakMap<LinkVisits, CommittedLink>();

/**
 * Adds each link's figures, its clicks by people among them, to the commit's journal,
 * `perCommit` links a commit at most, taking links from their iterator only as chunks need
 * them. A link whose visits a commit of unknown outcome carried is skipped when `sequence` found
 * that commit landed. Throws on a store failure; chunks committed before stay committed, and
 * `onCommitted` has been told.
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
  const lines = new JournalLines();
  // The next link is taken as a chunk fills, so a chunk is known whole once the one after it is
  // taken. Taking a link summarizes it (the caller's iterator), so the event loop gets a turn
  // every few ms of that: a second of many distinct visitors never holds it for a chunk's worth.
  let next = taken.next();
  const slices = new TimeSlices();
  while (!next.done) {
    const chunk: LinkVisits[] = [];
    // Links of the chunk an earlier commit of unknown outcome was found to have landed.
    const landed: CommittedLink[] = [];
    const toWrite: LinkVisits[] = [];
    const cuts: (LinkDeltas | null)[] = [];
    lines.clear();
    while (!next.done && chunk.length < perCommit && lines.bytes < COMMIT_JOURNAL_BYTES) {
      const link = next.value;
      chunk.push(link);
      const earlier = tried.get(link);
      if (earlier !== undefined && sequence.landed(link.uncertainAt)) landed.push(earlier);
      else {
        toWrite.push(link);
        cuts.push(lines.add(link));
      }
      next = taken.next();
      if (slices.over) await slices.yield();
    }
    const committed = await commitChunk(sequence, store, { toWrite, cuts, lines }, options, chunk);
    const outcome = { clicks: 0, bots: 0, dropped: 0 };
    for (const link of chunk) {
      outcome.clicks += link.clicks;
      outcome.bots += link.bots;
    }
    total.clicks += outcome.clicks;
    total.bots += outcome.bots;
    await options.onCommitted([...landed, ...committed], outcome);
    slices.restart();
  }
  return total;
}

/** The links of a chunk to journal, their lines, and what each line holds when cut down. */
interface ChunkLines {
  toWrite: LinkVisits[];
  cuts: (LinkDeltas | null)[];
  lines: JournalLines;
}

/** The commit of a chunk's lines: built again if this writer was taken over. */
async function commitChunk(
  sequence: CommitSequence,
  store: Store,
  { toWrite, cuts, lines }: ChunkLines,
  options: WriteClicksOptions,
  chunk: LinkVisits[],
): Promise<CommittedLink[]> {
  while (toWrite.length > 0) {
    const number = await sequence.next();
    const atomic = store.kv.atomic();
    // The parts hold the lines in their order, so the n-th line journaled is the n-th link.
    const written: CommittedLink[] = [];
    for (const { part, lines: count } of addJournal(atomic, sequence.id, number, lines)) {
      for (let i = 0; i < count; i++) {
        const n = written.length;
        written.push({ link: toWrite[n]!, part, cut: cuts[n]! });
      }
    }
    try {
      if (await sequence.commit(atomic, number) !== "landed") continue; // taken over: again
    } catch (error) {
      for (const one of written) {
        one.link.uncertainAt = sequence.tried;
        tried.set(one.link, one);
      }
      options.onUncertain?.(chunk);
      throw error;
    }
    return written;
  }
  return [];
}
