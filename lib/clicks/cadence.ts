/**
 * The slower cadence of one click writer: the figures waiting in its book, those it takes over
 * from silent writers, and their writing once due, with the spent journal parts' deletes
 * (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import type { Store } from "../kv/store.ts";
import { type RankedName, rerank } from "../tallies/rank.ts";
import { Adopter, silenceOf } from "./adopt.ts";
import { FigureBook } from "./book.ts";
import { deleteParts, type JournalPart } from "./journal.ts";
import type { CommitSequence } from "./sequence.ts";
import type { LinkDeltas, LinkVisits } from "./visits.ts";
import { writeFigures } from "./write_figures.ts";

// A tick's figures stop after this much time, the rest left for the next tick, so that a large
// round of figures never holds back the next second's clicks.
const FIGURES_TICK_MS = 250;

/** Options of {@linkcode FigureCadence}. */
export interface FigureCadenceOptions {
  /** How long a link's figures may wait, in ms: `STATS_LAG_SECONDS`. */
  lagMs: number;
  /** Estimated bytes of figures waiting past which the longest waiting are written at once. */
  maxBytes: number;
  /** Links a commit of figures takes at most; default `writeFigures`'s. */
  perCommit?: number;
  /** Where a link whose figures the store refuses is reported. */
  report(message: string, error: unknown): void;
}

/** What waits for the slower cadence, and its writing. */
export class FigureCadence {
  #store: Store;
  #sequence: CommitSequence;
  #options: FigureCadenceOptions;
  #book: FigureBook;
  #adopter: Adopter;
  #touched = new Map<string, RankedName>();
  // Journal parts spent whose delete failed, tried again by the next run.
  #spent: Deno.KvKey[] = [];
  #speakMs: number;

  /** The cadence of the writer of `sequence`. */
  constructor(store: Store, sequence: CommitSequence, options: FigureCadenceOptions) {
    this.#store = store;
    this.#sequence = sequence;
    this.#options = options;
    this.#book = new FigureBook(options.lagMs, options.maxBytes);
    const silentMs = silenceOf(options.lagMs);
    this.#speakMs = silentMs / 3;
    this.#adopter = new Adopter(sequence, store, silentMs);
  }

  /** Links whose figures wait. */
  get waiting(): number {
    return this.#book.size;
  }

  /** When the figures waiting longest were first visited (epoch ms); Infinity when none. */
  get oldest(): number {
    return this.#book.oldest;
  }

  /** Whether nothing is left to write or delete. */
  get done(): boolean {
    return this.#book.size === 0 && this.#spent.length === 0;
  }

  /**
   * Adds a link's visits that this writer's commit journaled in `part`, as the journal `cut`
   * them down when it did.
   */
  add(link: LinkVisits, part: JournalPart, now: number, cut: LinkDeltas | null): void {
    // A journal of this writer's earlier name is another's since it was taken over.
    if (part.writer === this.#sequence.id) this.#book.add(link, part, now, cut);
  }

  /** The clicks of link `id` this writer journaled that its record does not hold yet. */
  journaledClicks(id: string, folded: Readonly<Record<string, number>>): number {
    return this.#book.journaledClicks(id, folded);
  }

  /** Gives up every figure waiting: another writer took this one's journal, and them with it. */
  abandon(): void {
    this.#book.abandon();
    this.#adopter.release();
  }

  /** After the sequence settled: figures a commit of unknown outcome carried, landed or not. */
  settle(): void {
    this.#book.settle(this.#sequence, this.#touched);
  }

  /**
   * Takes over silent writers, speaks when this one would fall silent, and writes the figures
   * due (every one when `all`); then deletes the journal parts spent.
   */
  async run(all: boolean): Promise<void> {
    try {
      await this.#adopter.turn(this.#book);
      await this.#speak();
      await this.#write(all);
    } finally {
      const spent = [...this.#spent, ...this.#book.takeSpent()];
      this.#spent = [];
      await deleteParts(this.#store.kv, spent).catch((error) => {
        this.#spent = spent;
        throw error;
      });
    }
  }

  /** Writes the figures due, then moves the ranked names touched. */
  async #write(all: boolean): Promise<void> {
    const started = performance.now();
    await writeFigures(this.#sequence, this.#store, this.#book.take(this.#store.now(), all), {
      perCommit: this.#options.perCommit,
      touched: this.#touched,
      onWritten: (chunk) => {
        for (const figures of chunk) this.#book.done(figures);
      },
      onRefused: (link, error) => {
        this.#options.report(
          `click figures of link ${link.slug} are too large to write; visits dropped`,
          error,
        );
      },
      enough: all ? undefined : () => performance.now() - started >= FIGURES_TICK_MS,
    });
    // Names whose counts moved take their new places; a rerank that fails keeps them for the
    // next one (see `rerank`).
    const touched = [...this.#touched.values()];
    this.#touched.clear();
    await rerank(this.#store, touched);
  }

  /**
   * Commits nothing but this writer's key when the figures it holds would otherwise leave it
   * silent long enough for another writer to take them over.
   */
  async #speak(): Promise<void> {
    if (this.#book.size === 0 && !this.#adopter.reading) return;
    if (this.#store.now() - this.#sequence.last < this.#speakMs) return;
    await this.#sequence.commit(this.#store.kv.atomic());
  }
}
