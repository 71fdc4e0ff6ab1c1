/**
 * A click writer's commit sequence: each commit checks and sets the writer's own key, so one read
 * tells whether a commit with an unknown outcome landed, and another writer that takes over a
 * silent writer's journal stops it by setting that key (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import { clickWriterKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";

// A writer's key outlives its process by a day, then the store drops it.
const WRITER_KEPT_MS = 86_400_000;
// Commits found landed after an unknown outcome, remembered for the work that carried them.
const LANDED_KEPT = 64;

/**
 * What a writer's key holds once another writer took its journal over: the taker, and the
 * number of the last commit the writer had landed.
 */
export interface TakenOver {
  takenBy: string;
  last: number;
}

/** Whether a writer key's value says another writer took it over. */
export function isTakenOver(value: unknown): value is TakenOver {
  return typeof value === "object" && value !== null &&
    typeof (value as TakenOver).takenBy === "string" &&
    typeof (value as TakenOver).last === "number";
}

/** The number of the last commit a writer key's value says landed. */
export function lastLanded(value: unknown): number {
  if (typeof value === "number") return value;
  return isTakenOver(value) ? value.last : 0;
}

/** What a commit of the sequence came to. */
export type SequencedOutcome = "landed" | "refused";

/** One writer's chain of commits; commit one at a time. */
export class CommitSequence {
  #id: string;
  #store: Store;
  #onTakenOver: () => void;
  // The key's versionstamp as the last commit left it; undefined until read.
  #versionstamp: string | null | undefined = undefined;
  #last = 0;
  #uncertain: number | null = null;
  #landed: number[] = [];

  /**
   * A sequence of its own id over `store`. `onTakenOver` is told when another writer took this
   * one's journal over: the sequence goes on under a new id, and what the journal held is the
   * taker's to write.
   */
  constructor(
    store: Store,
    id: string = newWriterId(),
    onTakenOver: () => void = () => {},
  ) {
    this.#store = store;
    this.#id = id;
    this.#onTakenOver = onTakenOver;
  }

  /** The writer's id, part of its key and its journal's keys. */
  get id(): string {
    return this.#id;
  }

  /** The number of the last commit landed or tried, which is near its time (epoch ms). */
  get last(): number {
    return this.#last;
  }

  /** The number of the last commit tried: the one that threw, when `commit` throws. */
  get tried(): number {
    return this.#last;
  }

  /**
   * Reads the key when this writer does not know its state: after a commit whose outcome was
   * unknown, which it then finds landed or lost. Run by each commit first; run it before asking
   * {@linkcode CommitSequence.landed}.
   */
  async settle(): Promise<void> {
    if (this.#versionstamp !== undefined) return;
    const entry = await this.#store.kv.get<unknown>(clickWriterKey(this.#id));
    const value = lastLanded(entry.value);
    if (this.#uncertain !== null && value === this.#uncertain) this.#remember(this.#uncertain);
    this.#uncertain = null;
    this.#last = Math.max(this.#last, value);
    if (isTakenOver(entry.value)) {
      // Stopped by a writer that took this one's journal: go on as a new writer.
      this.#id = newWriterId();
      this.#versionstamp = null;
      this.#onTakenOver();
      return;
    }
    this.#versionstamp = entry.versionstamp;
  }

  /**
   * The number of this writer's next commit, once the sequence is settled: past the last, and
   * at least the time now, so it tells when the writer was last heard of.
   */
  async next(): Promise<number> {
    await this.settle();
    return Math.max(this.#last + 1, this.#store.now());
  }

  /** Whether commit `number`, whose outcome was unknown, was found landed by a settle. */
  landed(number: number | undefined): boolean {
    return number !== undefined && this.#landed.includes(number);
  }

  /**
   * Commits `atomic` as this writer's next commit. "refused" when another check of `atomic`
   * failed (another writer moved first): nothing landed. Throws when the store fails to answer;
   * {@linkcode CommitSequence.tried} is then that commit's number, settled by the next call.
   * `number` is the commit's number, from {@linkcode CommitSequence.next} when the commit's
   * writes name it; a commit refused because this writer was taken over must be built again.
   */
  async commit(atomic: Deno.AtomicOperation, number?: number): Promise<SequencedOutcome> {
    const next = await this.next();
    number ??= next;
    this.#last = Math.max(this.#last, number);
    const key = clickWriterKey(this.#id);
    atomic.check({ key, versionstamp: this.#versionstamp! })
      .set(key, number, { expireIn: WRITER_KEPT_MS });
    let result: Deno.KvCommitResult | Deno.KvCommitError;
    try {
      result = await retryLocked(() => atomic.commit());
    } catch (error) {
      this.#uncertain = number;
      this.#versionstamp = undefined;
      throw error;
    }
    if (result.ok) {
      this.#versionstamp = result.versionstamp;
      return "landed";
    }
    // Refused: by another check, or a try the store answered "locked" had landed it and this
    // one found the key moved. The key tells which.
    this.#uncertain = number;
    this.#versionstamp = undefined;
    await this.settle();
    return this.landed(number) ? "landed" : "refused";
  }

  /**
   * Deletes this writer's key, once everything it wrote is written: a writer that stops leaves
   * nothing for others to read. A key that moved meanwhile (taken over) is left.
   */
  async retire(): Promise<void> {
    if (this.#versionstamp === undefined) return;
    const key = clickWriterKey(this.#id);
    await this.#store.kv.atomic().check({ key, versionstamp: this.#versionstamp }).delete(key)
      .commit();
  }

  /**
   * Takes over the silent writers whose keys are `entries`, in one commit of this sequence that
   * checks them: false when one moved meanwhile (another writer came first, or it spoke again).
   */
  async takeOver(...entries: Deno.KvEntryMaybe<unknown>[]): Promise<boolean> {
    // Settled first: a writer itself taken over goes on under a new name, the one to set here.
    const number = await this.next();
    const atomic = this.#store.kv.atomic();
    for (const entry of entries) {
      atomic.check(entry).set(
        entry.key,
        { takenBy: this.#id, last: lastLanded(entry.value) } satisfies TakenOver,
        { expireIn: WRITER_KEPT_MS },
      );
    }
    return await this.commit(atomic, number) === "landed";
  }

  #remember(number: number): void {
    this.#landed.push(number);
    if (this.#landed.length > LANDED_KEPT) this.#landed.shift();
  }
}

function newWriterId(): string {
  return crypto.randomUUID().slice(0, 8);
}
