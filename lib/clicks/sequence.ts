/**
 * A click writer's commit sequence: each commit checks and sets the writer's own key, so one read
 * tells whether a commit with an unknown outcome landed (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import { clickWriterKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";

// A writer's key outlives its process by a day, then the store drops it.
const WRITER_KEPT_MS = 86_400_000;
// Commits found landed after an unknown outcome, remembered for the work that carried them.
const LANDED_KEPT = 64;

/** What a commit of the sequence came to. */
export type SequencedOutcome = "landed" | "refused";

/** One writer's chain of commits; commit one at a time. */
export class CommitSequence {
  /** The writer's id, part of its key. */
  readonly id: string;
  #store: Store;
  // The key's versionstamp as the last commit left it; undefined until read.
  #versionstamp: string | null | undefined = undefined;
  #last = 0;
  #uncertain: number | null = null;
  #landed: number[] = [];

  /** A sequence of its own id over `store`. */
  constructor(store: Store, id: string = crypto.randomUUID().slice(0, 8)) {
    this.#store = store;
    this.id = id;
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
    const entry = await this.#store.kv.get<number>(clickWriterKey(this.id));
    const value = typeof entry.value === "number" ? entry.value : 0;
    if (this.#uncertain !== null && value === this.#uncertain) this.#remember(this.#uncertain);
    this.#uncertain = null;
    this.#last = Math.max(this.#last, value);
    this.#versionstamp = entry.versionstamp;
  }

  /** Whether commit `number`, whose outcome was unknown, was found landed by a settle. */
  landed(number: number | undefined): boolean {
    return number !== undefined && this.#landed.includes(number);
  }

  /**
   * Commits `atomic` as this writer's next commit. "refused" when another check of `atomic`
   * failed (another writer moved first): nothing landed. Throws when the store fails to answer;
   * {@linkcode CommitSequence.tried} is then that commit's number, settled by the next call.
   */
  async commit(atomic: Deno.AtomicOperation): Promise<SequencedOutcome> {
    await this.settle();
    const number = Math.max(this.#last + 1, this.#store.now());
    this.#last = number;
    const key = clickWriterKey(this.id);
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

  #remember(number: number): void {
    this.#landed.push(number);
    if (this.#landed.length > LANDED_KEPT) this.#landed.shift();
  }
}
