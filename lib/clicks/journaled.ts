/**
 * Clicks other writers have journaled and their links' records do not hold yet: what a link's
 * `clicks` adds to its record's for visits another instance answered
 * (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import { readInSlices } from "../kv/get_many.ts";
import { clickJournalKey, clickJournalPrefix, clickWritersPrefix } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { foldedIn, readJournalClicks } from "./journal.ts";
import { lastLanded } from "./sequence.ts";
import { TimeSlices } from "../pause.ts";

// A journal part read, kept to learn when it is spent: deleted once every link of it is folded.
interface PartRead {
  key: Deno.KvKey;
  writer: number;
  commit: number;
  ids: string[];
  /** When to look whether it is spent (epoch ms). */
  checkAt: number;
  /** Found gone at the last look: forgotten at the next. */
  gone: boolean;
}

// How often the parts due for a look are looked at; a part is first looked at a lag period and
// this long after its reading: its links are written within the lag, and the part deleted after.
const CHECK_EVERY_MS = 5_000;

/** Journal parts a reading lists at a time; it reads on until it has read every commit. */
export const PARTS_PER_PAGE = 200;

// Spent parts looked at at once, some tens of KiB each: groups of 50, eight at a time, so that
// a backlog's thousands take a few round trips to the store, which a read waits for.
const PARTS_AT_ONCE = { groupSize: 50, inFlight: 8 };

/** Journal lines held at most; past it, no part is read until some are forgotten. */
export const MAX_LINES = 2_000_000;

/**
 * The clicks in the journals of every writer but this process's, read as they are committed,
 * each kept until its journal part is found spent twice: looked for a lag period and 5 s after
 * its reading, then each 5 s once gone, each lag period while there. So it holds about a lag
 * period of other writers' lines, which their own bounds on figures waiting bound, and
 * {@linkcode MAX_LINES} at most.
 */
export class OtherJournals {
  #store: Store;
  #lagMs: number;
  #own: () => string;
  #writers: string[] = [];
  #numbers = new Map<string, number>();
  // By writer, the last of its commits whose journal is read.
  #readTo = new Map<string, number>();
  // By link: its writer's number, commit and clicks, in turn, for each journal line read.
  #byLink = new Map<string, number[]>();
  #lines = 0;
  #parts: PartRead[] = [];
  #checkedAt: number;
  // The reading under way, and the one that starts when it ends, shared by the calls meanwhile.
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;

  /**
   * Journals in `store`, whose writers write a link's figures within `lagMs`, read for this
   * process, whose writer is named `own()` as each reading starts.
   */
  constructor(store: Store, lagMs: number, own: () => string) {
    this.#store = store;
    this.#lagMs = lagMs;
    this.#own = own;
    this.#checkedAt = store.now();
  }

  /** Links with clicks held here. */
  get size(): number {
    return this.#byLink.size;
  }

  /**
   * Reads the journal parts other writers committed since the last reading, a backlog included,
   * a few ms at a time between turns of the event loop. The reading starts after the call, so it
   * sees every commit landed before: one asked for while another runs starts when it ends, shared
   * by every call meanwhile.
   */
  fresh(): Promise<void> {
    if (this.#queued !== null) return this.#queued;
    if (this.#running === null) return this.#run();
    const queued = this.#running.catch(() => {}).then(() => {
      this.#queued = null;
      return this.#run();
    });
    this.#queued = queued;
    return queued;
  }

  #run(): Promise<void> {
    const running = this.#read(this.#own()).finally(() => {
      if (this.#running === running) this.#running = null;
    });
    this.#running = running;
    return running;
  }

  /**
   * The clicks of link `id` held here that its record does not: those of commits past its mark
   * for their writer. Nothing is forgotten here: a read of the record made earlier may still ask.
   */
  clicksOf(id: string, folded: Readonly<Record<string, number>>): number {
    const entries = this.#byLink.get(id);
    if (entries === undefined) return 0;
    let clicks = 0;
    for (let i = 0; i < entries.length; i += 3) {
      if (!foldedIn(folded, this.#writers[entries[i]!]!, entries[i + 1]!)) {
        clicks += entries[i + 2]!;
      }
    }
    return clicks;
  }

  async #read(own: string): Promise<void> {
    const kv = this.#store.kv;
    // A writer's key holds its last commit, set in the commit with that commit's journal: every
    // part up to it is in the store once the key is read.
    const latest = new Map<string, number>();
    for await (const entry of kv.list({ prefix: clickWritersPrefix() })) {
      const writer = String(entry.key[1]);
      if (writer !== own) latest.set(writer, lastLanded(entry.value));
    }
    const slices = new TimeSlices();
    for (const [writer, last] of latest) {
      let from = this.#readTo.get(writer) ?? 0;
      while (from < last && this.#lines < MAX_LINES) {
        const parts = await Array.fromAsync(kv.list(
          { prefix: clickJournalPrefix(writer), start: clickJournalKey(writer, from + 1, 0) },
          { limit: PARTS_PER_PAGE },
        ));
        slices.restart();
        // A full page may end within a commit: that commit is left for the next page, which
        // holds it whole (a commit's journal is a dozen parts at most).
        const cut = parts.length === PARTS_PER_PAGE ? Number(parts.at(-1)!.key[2]) : Infinity;
        let to = cut === Infinity ? last : from;
        for (const entry of parts) {
          const commit = Number(entry.key[2]);
          if (commit >= cut) break;
          this.#add(this.#numberOf(writer), commit, entry.key, entry.value);
          to = Math.max(to, commit);
          if (slices.over) await slices.yield();
        }
        if (to === from) break; // a page of one commit's parts: never made (see above)
        this.#readTo.set(writer, to);
        from = to;
      }
    }
    // A writer whose key is gone wrote all its figures; its parts read are looked at as spent.
    for (const writer of this.#readTo.keys()) if (!latest.has(writer)) this.#readTo.delete(writer);
    await this.#checkSpent();
  }

  #add(writer: number, commit: number, key: Deno.KvKey, value: unknown): void {
    const clicks = readJournalClicks(value);
    const ids: string[] = [];
    for (let i = 0; i < clicks.length; i += 2) {
      const id = clicks[i] as string;
      const entries = this.#byLink.get(id);
      if (entries === undefined) this.#byLink.set(id, [writer, commit, clicks[i + 1] as number]);
      else entries.push(writer, commit, clicks[i + 1] as number);
      ids.push(id);
    }
    if (ids.length === 0) return;
    this.#lines += ids.length;
    const checkAt = this.#store.now() + this.#lagMs + CHECK_EVERY_MS;
    this.#parts.push({ key, writer, commit, ids, checkAt, gone: false });
  }

  /**
   * Forgets the clicks of the parts found gone from the store at two looks in a row: a part is
   * deleted once each of its links is folded into its record or retired, and a read of a record
   * made before that may still ask for a while. One still there is looked at a lag period on.
   */
  async #checkSpent(): Promise<void> {
    const now = this.#store.now();
    if (now - this.#checkedAt < CHECK_EVERY_MS) return;
    this.#checkedAt = now;
    const due = this.#parts.filter((part) => part.checkAt <= now);
    if (due.length === 0) return;
    const spent = new Set<PartRead>();
    const keys = due.map((part) => part.key);
    await readInSlices(this.#store.kv, keys, (found, from) => {
      found.forEach((entry, i) => {
        const part = due[from + i]!;
        if (entry.versionstamp !== null) {
          part.checkAt = now + this.#lagMs;
        } else if (part.gone) {
          spent.add(part);
        } else {
          part.gone = true;
          part.checkAt = now + CHECK_EVERY_MS;
        }
      });
    }, PARTS_AT_ONCE);
    this.#parts = this.#parts.filter((part) => !spent.has(part));
    const slices = new TimeSlices();
    for (const part of spent) {
      for (const id of part.ids) this.#forget(id, part.writer, part.commit);
      this.#lines -= part.ids.length;
      if (slices.over) await slices.yield();
    }
  }

  #forget(id: string, writer: number, commit: number): void {
    const entries = this.#byLink.get(id);
    if (entries === undefined) return;
    let kept = 0;
    for (let i = 0; i < entries.length; i += 3) {
      if (entries[i] === writer && entries[i + 1] === commit) continue;
      entries[kept++] = entries[i]!;
      entries[kept++] = entries[i + 1]!;
      entries[kept++] = entries[i + 2]!;
    }
    if (kept === 0) this.#byLink.delete(id);
    else entries.length = kept;
  }

  #numberOf(writer: string): number {
    let number = this.#numbers.get(writer);
    if (number === undefined) {
      number = this.#writers.push(writer) - 1;
      this.#numbers.set(writer, number);
    }
    return number;
  }
}
