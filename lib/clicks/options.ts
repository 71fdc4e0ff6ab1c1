/**
 * What a click buffer may be told: its bounds, its cadence, and whom it tells what it did.
 * @module
 */
import type { CountryLookup } from "./classify.ts";
import type { FlushOutcome } from "./visits.ts";

/** Options of {@linkcode ClickBuffer}. */
export interface ClickBufferOptions {
  /**
   * Visits waiting that make a flush start at once, a guard against a burst; default 100,000.
   * Below it the timer sets the pace.
   */
  flushThreshold?: number;
  /**
   * Bytes of visits waiting for their clicks to be written (while the store fails, say) past
   * which new visits are dropped; default `MAX_PENDING_BYTES` (`batch.ts`).
   */
  maxPendingBytes?: number;
  /**
   * How long a link's figures other than its clicks may wait, in ms: `STATS_LAG_SECONDS`;
   * default 60 s.
   */
  statsLagMs?: number;
  /**
   * Bytes of figures waiting for the slower cadence past which the longest waiting are written
   * at once; default {@linkcode MAX_FIGURE_BYTES}.
   */
  maxFigureBytes?: number;
  /** Links a commit of clicks takes; default `clicksPerCommit` (`write_clicks.ts`) of a batch's links. */
  clicksPerCommit?: number;
  /** Links a commit of figures takes at most; default `writeFigures`'s. */
  figuresPerCommit?: number;
  /**
   * Country lookup by address; default the offline geoip database, loaded as the buffer starts
   * (or on its first flush).
   */
  countryLookup?: CountryLookup;
  /** Where failures are reported; default `console.error`. */
  log?: (message: string, error?: unknown) => void;
  /**
   * Told of every flush's outcome, so that a failure lasting many flushes is logged once (see
   * `lib/log/fault.ts`); without it, every failed flush is reported through `log`.
   */
  flushFault?: {
    failed(error: unknown, waiting: { waiting: number; figuresWaiting: number }): void;
    succeeded(): void;
  };
  /** Told how many visits were recorded and written, for metrics. */
  onRecorded?: (visits: number) => void;
  /** Told what each committed chunk of clicks wrote, for metrics. */
  onFlushed?: (outcome: FlushOutcome) => void;
}

/** The default bound on figures waiting for the slower cadence, in estimated bytes: 32 MiB. */
export const MAX_FIGURE_BYTES = 32 * 1024 * 1024;
