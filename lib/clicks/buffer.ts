/**
 * The click buffer: the redirect records visits in memory and never waits for the store; a timer
 * writes their clicks each second (`write_clicks.ts`) and their figures at the slower cadence
 * (`cadence.ts`), and shutdown writes everything. A failed flush is retried; nothing is lost
 * meanwhile, up to a bound in bytes on what waits.
 * @module
 */
import { beforeDeadline } from "../kv/deadline.ts";
import { TimeSlices } from "../pause.ts";
import type { JournaledClicks, Store } from "../kv/store.ts";
import { VisitClassifier } from "./classify.ts";
import {
  addVisit,
  type Batch,
  MAX_PENDING_BYTES,
  newBatch,
  oldestVisitAt,
  pendingIn,
  resolveCountries,
  summaries,
  type VisitedLink,
  written,
} from "./batch.ts";
import { FigureCadence } from "./cadence.ts";
import { loadGeoipLookup } from "./geoip.ts";
import { OtherJournals } from "./journaled.ts";
import { CommitSequence } from "./sequence.ts";
import { type ClickBufferOptions, MAX_FIGURE_BYTES } from "./options.ts";
import { clicksPerCommit, writeClicks } from "./write_clicks.ts";

// The most a flush waits for its reading of other writers' journals, which goes on after.
const READING_WAIT_MS = 250;

/**
 * Buffers visits in memory and flushes them to the store. It is its store's
 * {@linkcode JournaledClicks}: the clicks committed and not yet in their links' records, its
 * own and other writers'.
 */
export class ClickBuffer implements JournaledClicks {
  #store: Store;
  #options: ClickBufferOptions;
  #threshold: number;
  #maxPendingBytes: number;
  #batch: Batch;
  #retry: Batch[] = [];
  // Visits and bytes waiting in #retry, kept up to date so the hot path need not add them up.
  #retrySize = 0;
  #retryBytes = 0;
  // Batches a flush is writing now: out of #retry, not yet written.
  #writing: Batch[] = [];
  // The batch being written this moment: a visit to one of its links not yet taken joins it,
  // and is written by this flush rather than the next.
  #open: Batch | null = null;
  #sequence: CommitSequence;
  #figures: FigureCadence;
  #others: OtherJournals;
  #flushing: Promise<void> | null = null;
  #flushingAll = false;
  // A timer tick came while a flush was under way: the next flush starts as it ends.
  #again = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #classifier: VisitClassifier;
  #lookup: Promise<void> | null = null;
  #dropped = 0;

  /** Builds a buffer over `store`. */
  constructor(store: Store, options: ClickBufferOptions = {}) {
    this.#store = store;
    this.#options = options;
    this.#threshold = options.flushThreshold ?? 100_000;
    this.#maxPendingBytes = options.maxPendingBytes ?? MAX_PENDING_BYTES;
    const lagMs = options.statsLagMs ?? 60_000;
    // Another writer that took this one's journal took the figures waiting with it.
    this.#sequence = new CommitSequence(store, undefined, () => this.#figures.abandon());
    this.#figures = new FigureCadence(store, this.#sequence, {
      lagMs,
      maxBytes: options.maxFigureBytes ?? MAX_FIGURE_BYTES,
      perCommit: options.figuresPerCommit,
      report: (message, error) => this.#report(message, error),
    });
    this.#others = new OtherJournals(store, lagMs, () => this.writer);
    this.#classifier = new VisitClassifier(options.countryLookup ?? null);
    this.#batch = newBatch(store.now());
    store.journaled = this;
  }

  /** Reads what other writers journaled since the last call (see `OtherJournals`). */
  fresh(): Promise<void> {
    return this.#others.fresh();
  }

  /** The clicks of link `id` committed and not yet in its record, given the record's marks. */
  clicksOf(id: string, folded: Readonly<Record<string, number>>): number {
    return this.#figures.journaledClicks(id, folded) + this.#others.clicksOf(id, folded);
  }

  /** Visits recorded whose clicks are not yet written, those a flush is writing now included. */
  get pending(): number {
    let writing = 0;
    for (const batch of this.#writing) writing += batch.size;
    return this.#batch.size + this.#retrySize + writing;
  }

  /** Bytes the visits waiting for their clicks take (see {@linkcode MAX_PENDING_BYTES}). */
  get pendingBytes(): number {
    return this.#batch.bytes + this.#retryBytes;
  }

  /** Links whose figures other than clicks wait for the slower cadence. */
  get figuresWaiting(): number {
    return this.#figures.waiting;
  }

  /**
   * How long the oldest visit whose clicks are not yet written has waited, in ms at `now`; 0
   * when every click is written. Clicks lag their visits by this much at most. Reads every link
   * waiting: for a metrics scrape, not for the request path.
   */
  waitingMs(now: number = this.#store.now()): number {
    const oldest = oldestVisitAt([...this.#writing, ...this.#retry, this.#batch]);
    // A clock set back past the first visit reads as no wait, never as a negative one.
    return oldest === Infinity ? 0 : Math.max(0, now - oldest);
  }

  /** How long the figures waiting longest have waited, in ms at `now`; 0 when none waits. */
  figuresWaitingMs(now: number = this.#store.now()): number {
    const oldest = this.#figures.oldest;
    return oldest === Infinity ? 0 : Math.max(0, now - oldest);
  }

  /** Visits dropped because the buffer was full while the store failed. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Records one visit: cheap, synchronous, never throws for the store's sake. The visit is
   * classified through the classifier's caches and counted; the facts come as arguments, not an
   * object made for each request, and a caller that has read the clock passes `now`.
   */
  recordVisit(
    link: VisitedLink,
    userAgent: string,
    referer: string,
    client: string,
    country: string,
    now: number = this.#store.now(),
  ): void {
    if (now >= this.#batch.dayEnd) this.#rollOver(now);
    const waiting = this.#batch.bytes + this.#retryBytes;
    if (waiting >= this.#maxPendingBytes) {
      this.#dropped++;
      return;
    }
    const open = this.#open;
    const joining = open?.links.get(link.id);
    if (
      open && joining && !joining.taken && now < open.dayEnd &&
      open.bytes + waiting < this.#maxPendingBytes
    ) {
      // Its link is still to be written by the flush under way: written with it. The batch
      // being written counts toward the bound here, so joining never passes it.
      addVisit(open, joining, this.#classifier, userAgent, referer, client, country, now);
    } else {
      const batch = this.#batch;
      const pending = pendingIn(batch, link, now);
      addVisit(batch, pending, this.#classifier, userAgent, referer, client, country, now);
      if (batch.size >= this.#threshold) queueMicrotask(() => void this.#run(false));
    }
    this.#options.onRecorded?.(1);
  }

  /** Writes everything recorded so far, figures included; concurrent calls share one flush. */
  flush(): Promise<void> {
    return this.#run(true);
  }

  /**
   * One tick's flush, as the timer runs it: the clicks recorded, a silent writer's journal
   * taken over, and the figures due.
   */
  tick(): Promise<void> {
    return this.#run(false);
  }

  /** Resolves once no flush is under way, those a flush under way starts after it included. */
  async idle(): Promise<void> {
    while (this.#flushing !== null) await this.#flushing;
  }

  /** This buffer's name as a click writer in the store. */
  get writer(): string {
    return this.#sequence.id;
  }

  #run(all: boolean): Promise<void> {
    if (this.#flushing !== null) {
      // A tick's flush under way may leave figures for later: everything is written after it.
      if (all && !this.#flushingAll) return this.#flushing.then(() => this.#run(true));
      return this.#flushing;
    }
    this.#flushingAll = all;
    this.#flushing = this.#flushAll(all).finally(() => {
      this.#flushing = null;
      if (this.#again && this.#timer !== undefined) void this.#run(false);
      this.#again = false;
    });
    return this.#flushing;
  }

  /**
   * Flushes every `intervalMs` (default 1 s) until {@linkcode ClickBuffer.stop}: the clicks
   * recorded, and the figures due.
   */
  start(intervalMs = 1000): void {
    // The country database loads now, not in the first flush under traffic.
    this.#lookupReady().catch(() => {});
    this.#timer ??= setInterval(() => {
      // A flush still under way at the tick is followed at once by the next: flushes longer
      // than a tick run back to back.
      if (this.#flushing !== null) this.#again = true;
      else void this.#run(false);
    }, intervalMs);
  }

  /** Stops the timer and writes what is left; a failure here is reported, not thrown. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
    if (this.#batch.size > 0 || this.#retry.length > 0 || !this.#figures.done) {
      await this.flush();
    }
    if (this.#batch.size === 0 && this.#retry.length === 0 && this.#figures.done) {
      await this.#sequence.retire().catch(() => {});
    }
  }

  async #flushAll(all: boolean): Promise<void> {
    // Other writers' journals are read each tick too, so a read finds at most a second's to
    // read; a failure there is a read's to report, and the flush waits for it a moment at most.
    const reading = this.fresh().catch(() => {});
    if (this.#batch.size > 0) this.#rollOver(this.#store.now());
    const batches = this.#retry;
    this.#keepForRetry([]);
    this.#writing = batches;
    let failure: { error: unknown } | undefined;
    let settled = false;
    try {
      // A commit whose outcome was unknown is found landed or lost before anything else.
      await this.#sequence.settle();
      this.#figures.settle();
      settled = true;
      await this.#lookupReady();
      await resolveCountries(batches, this.#classifier);
      for (const batch of batches) await this.#writeClicks(batch);
    } catch (error) {
      // Keep the batches not written for the next flush; nothing recorded is lost. They go
      // before any batch that midnight moved to #retry meanwhile: a link's visits are written
      // oldest first.
      const left = batches.filter((batch) => batch.links.size > 0);
      this.#keepForRetry([...left, ...this.#retry]);
      failure = { error };
    } finally {
      this.#writing = [];
    }
    try {
      // The figures of the clicks written go on, even when some clicks are left for a retry;
      // not before the book knows what a commit of unknown outcome carried, lest it write that
      // again once its commit finds the commit landed.
      if (settled) await this.#figures.run(all);
    } catch (error) {
      failure ??= { error };
    }
    await beforeDeadline(reading, READING_WAIT_MS);
    const fault = this.#options.flushFault;
    if (failure === undefined) fault?.succeeded();
    else if (fault === undefined) this.#report("click flush failed, will retry", failure.error);
    else {fault.failed(failure.error, {
        waiting: this.pending,
        figuresWaiting: this.figuresWaiting,
      });}
  }

  /** Writes one batch's clicks; each chunk's links leave it as they commit. */
  async #writeClicks(batch: Batch): Promise<void> {
    this.#open = batch;
    try {
      await writeClicks(this.#sequence, this.#store, summaries(batch), {
        perCommit: this.#options.clicksPerCommit ?? clicksPerCommit(batch.links.size),
        onCommitted: async (chunk, outcome) => {
          const now = this.#store.now();
          // A chunk's most visited links may have thousands of visits each to count: the loop
          // gets its turns meanwhile.
          const slices = new TimeSlices();
          for (const { link, part, cut } of chunk) {
            written(batch, link.id);
            this.#figures.add(link, part, now, cut);
            if (slices.over) await slices.yield();
          }
          this.#options.onFlushed?.(outcome);
        },
      });
    } finally {
      this.#open = null;
    }
  }

  #rollOver(now: number): void {
    if (this.#batch.size > 0) this.#keepForRetry([...this.#retry, this.#batch]);
    this.#batch = newBatch(now);
  }

  #keepForRetry(batches: Batch[]): void {
    this.#retry = batches;
    this.#retrySize = batches.reduce((sum, batch) => sum + batch.size, 0);
    this.#retryBytes = batches.reduce((sum, batch) => sum + batch.bytes, 0);
  }

  /** Loads the country lookup once (a failed load is tried again by the next call). */
  #lookupReady(): Promise<void> {
    if (this.#classifier.canLookUp) return Promise.resolve();
    this.#lookup ??= loadGeoipLookup().then((lookup) => this.#classifier.setLookup(lookup));
    this.#lookup.catch(() => {
      this.#lookup = null;
    });
    return this.#lookup;
  }

  #report(message: string, error: unknown): void {
    (this.#options.log ?? ((text, cause) => console.error(text, cause)))(message, error);
  }
}
