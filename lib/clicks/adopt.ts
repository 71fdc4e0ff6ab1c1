/**
 * Taking over a silent writer's journal: a process killed without warning leaves the figures of
 * its last lag period in its journal, and whichever instance finds its key silent takes them
 * over and writes them (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import { readInSlices } from "../kv/get_many.ts";
import {
  clickJournalPrefix,
  clickWritersPrefix,
  linkByCreatedKey,
  linkStatsKey,
} from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { TimeSlices } from "../pause.ts";
import { readFolded } from "../tallies/shares.ts";
import type { FigureBook } from "./book.ts";
import { foldedIn, type JournalPart, readJournal } from "./journal.ts";
import { type CommitSequence, isTakenOver } from "./sequence.ts";
import type { LinkDeltas } from "./visits.ts";

/** Journal parts read into the book at most each time, so a large journal is taken in turns. */
export const PARTS_PER_TURN = 200;

// Links whose names a takeover keeps from one turn to the next, at most: a busy journal names
// the same links in every turn's parts.
const NAMED_LINKS = 50_000;

/** A link's names, which never change, as a takeover adds its deltas to the book. */
interface LinkNames {
  slug: string;
  title: string;
}

/**
 * One writer's part in taking over others: which silent writers it holds, and how far it has
 * read each one's journal.
 */
export class Adopter {
  #sequence: CommitSequence;
  #store: Store;
  #silentMs: number;
  // Writers taken over, each with where its journal's reading stands (undefined: at the start,
  // "": read whole).
  #held = new Map<string, string | undefined>();
  // Each writer's key as last read, and when it was first read so (this instance's clock).
  #heard = new Map<string, { versionstamp: string; at: number }>();
  // The names of the links read while journals are read, null for a link gone; their marks are
  // read afresh each turn, as another taker of the same journal may fold parts of it meanwhile.
  #names = new Map<string, LinkNames | null>();

  /**
   * An adopter for the writer of `sequence`, which counts a writer silent once its key has not
   * changed for `silentMs` of this instance's time.
   */
  constructor(sequence: CommitSequence, store: Store, silentMs: number) {
    this.#sequence = sequence;
    this.#store = store;
    this.#silentMs = silentMs;
  }

  /** Whether a journal taken over is still being read: its writer must keep speaking. */
  get reading(): boolean {
    for (const cursor of this.#held.values()) if (cursor !== "") return true;
    return false;
  }

  /** Forgets every writer held: this one was itself taken over, and they with it. */
  release(): void {
    this.#held.clear();
    this.#names.clear();
  }

  /**
   * Takes over every silent writer that left a journal, then reads up to
   * {@linkcode PARTS_PER_TURN} parts of the journals held into `book`, due at once. A link's
   * part already folded into its record (its mark says so) or whose link is gone is not added.
   */
  async turn(book: FigureBook): Promise<void> {
    await this.#takeSilent();
    let budget = PARTS_PER_TURN;
    for (const [writer, cursor] of this.#held) {
      if (cursor === "" || budget <= 0) continue;
      const limit = budget;
      const iterator = this.#store.kv.list(
        { prefix: clickJournalPrefix(writer) },
        { limit, cursor },
      );
      const parts: { part: JournalPart; deltas: LinkDeltas[] }[] = [];
      const slices = new TimeSlices();
      for await (const entry of iterator) {
        const commit = Number(entry.key[2]);
        parts.push({
          part: { key: entry.key, writer, commit, left: 0 },
          deltas: readJournal(entry.value),
        });
        if (slices.over) await slices.yield();
      }
      budget -= parts.length;
      await this.#add(book, writer, parts);
      // Moved on only once the parts are in the book: a failed read reads them again.
      this.#held.set(writer, parts.length < limit ? "" : iterator.cursor);
    }
    if (!this.reading) this.#names.clear();
  }

  async #takeSilent(): Promise<void> {
    const now = this.#store.now();
    const writers = new Map<string, Deno.KvEntry<unknown>>();
    for await (const entry of this.#store.kv.list({ prefix: clickWritersPrefix() })) {
      const writer = String(entry.key[1]);
      writers.set(writer, entry);
      const heard = this.#heard.get(writer);
      if (heard?.versionstamp !== entry.versionstamp) {
        this.#heard.set(writer, { versionstamp: entry.versionstamp, at: now });
      }
    }
    for (const writer of this.#heard.keys()) if (!writers.has(writer)) this.#heard.delete(writer);
    // Silence is timed on this instance's clock from the key's last change, so instances whose
    // clocks disagree never take each other over for that.
    const silent = (writer: string) => {
      const heard = this.#heard.get(writer);
      return heard === undefined || now - heard.at > this.#silentMs;
    };
    // A taker this one holds, or another took over, reads no journal any more.
    const stopped = (taker: string) =>
      this.#held.has(taker) || isTakenOver(writers.get(taker)?.value);
    for (const [writer, entry] of writers) {
      if (writer === this.#sequence.id || this.#held.has(writer)) continue;
      const value = entry.value;
      const mine = isTakenOver(value) && value.takenBy === this.#sequence.id;
      // A journal is free once its writer is silent, or its taker silent or stopped.
      const free = isTakenOver(value)
        ? silent(value.takenBy) || stopped(value.takenBy)
        : silent(writer);
      if (!mine && !free) continue;
      const left = this.#store.kv.list({ prefix: clickJournalPrefix(writer) }, { limit: 1 });
      if ((await left.next()).done) {
        // Silent with nothing left: its key goes, so that instances that come and go leave no
        // keys to read each tick. Checked: a commit of its that lands first keeps it.
        // A writer that holds another's journal keeps its key: that journal is taken with it.
        const holds = [...writers.values()].some(({ value }) =>
          isTakenOver(value) && value.takenBy === writer
        );
        if (!mine && !holds) {
          await this.#store.kv.atomic().check(entry).delete(entry.key).commit();
        }
        continue;
      }
      // A journal its taker holds is taken with that taker, silent too: stopped, it reads it no
      // more. Taken alone, the taker could speak again and read on beside this one.
      const holder = isTakenOver(value) && !mine && !this.#held.has(value.takenBy)
        ? writers.get(value.takenBy)
        : undefined;
      const along = holder !== undefined && !isTakenOver(holder.value) ? [holder] : [];
      if (mine || await this.#sequence.takeOver(entry, ...along)) {
        for (const taken of [entry, ...along]) this.#held.set(String(taken.key[1]), undefined);
      }
    }
  }

  /**
   * Adds the parts' deltas not yet folded into their links' records to `book`, each with its
   * link's slug and title from the link's record.
   */
  async #add(
    book: FigureBook,
    writer: string,
    parts: { part: JournalPart; deltas: LinkDeltas[] }[],
  ): Promise<void> {
    const kv = this.#store.kv;
    const names = this.#names;
    const named = new Set<string>();
    for (const { deltas } of parts) for (const one of deltas) named.add(one.id);
    if (names.size + named.size > NAMED_LINKS) names.clear();
    const unnamed = [...named].filter((id) => !names.has(id));
    await readInSlices(kv, unnamed.map(linkByCreatedKey), (entries, from) => {
      entries.forEach((entry, i) => {
        const record = entry.value as { slug?: unknown; title?: unknown } | null;
        names.set(
          unnamed[from + i]!,
          typeof record?.slug === "string"
            ? { slug: record.slug, title: typeof record.title === "string" ? record.title : "" }
            : null,
        );
      });
    });
    // A link gone has left every figure: nothing of it is to be added.
    const live = [...named].filter((id) => names.get(id));
    const marks = new Map<string, Readonly<Record<string, number>>>();
    await readInSlices(kv, live.map(linkStatsKey), (entries, from) => {
      entries.forEach((entry, i) => {
        if (entry.value !== null) marks.set(live[from + i]!, readFolded(entry.value) ?? {});
      });
    });
    const slices = new TimeSlices();
    const now = this.#store.now();
    for (const { part, deltas } of parts) {
      for (const one of deltas) {
        const link = names.get(one.id);
        const folded = marks.get(one.id);
        if (!link || !folded || foldedIn(folded, writer, part.commit)) continue;
        one.slug = link.slug;
        one.title = link.title;
        part.left++;
        book.adopt(one, part, now);
      }
      if (part.left === 0) book.spend(part, 0);
      if (slices.over) await slices.yield();
    }
  }
}

/**
 * How long a writer's key may stay unchanged before another takes its journal over: half the
 * lag, within 0.75 to 30 s, so a killed writer's figures are written within two lag periods.
 */
export function silenceOf(lagMs: number): number {
  return Math.min(30_000, Math.max(750, lagMs / 2));
}
