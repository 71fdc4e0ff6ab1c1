/**
 * A fault that lasts (a store that cannot be written, a file that cannot be read) logged as it
 * starts, reminded of at most once a minute while it lasts, and said over once when it ends,
 * rather than once for every try that fails.
 * @module
 */
import { describeError, type Logger, logLine } from "./mod.ts";

/** Options of {@linkcode FaultLog}. */
export interface FaultLogOptions {
  /** Where the lines go. */
  log: Logger;
  /** The first line's `msg`, naming what failed: `click flush failed, will retry`. */
  started: string;
  /** The reminders' `msg`: `click flush still failing`. */
  lasting: string;
  /** The last line's `msg`: `click flush works again`. */
  ended: string;
  /** The least time between two lines about the same fault, in ms; default 60,000. */
  reminderMs?: number;
  /** Clock, epoch ms; default `Date.now`. */
  now?: () => number;
}

/**
 * What a fault's tries tell it: {@linkcode FaultLog.failed} for each that fails, with how much
 * waits on it, and {@linkcode FaultLog.succeeded} for each that works. A failure while nothing
 * waits is not worth a line: nothing is lost, so nothing is said, unless it was said already.
 */
export class FaultLog {
  #options: FaultLogOptions;
  #now: () => number;
  // While a fault said to have started lasts: when it started, when it was last said, the
  // failures since it started.
  #since: number | null = null;
  #saidAt = 0;
  #failures = 0;

  /** A fault log writing to `options.log`. */
  constructor(options: FaultLogOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Whether a fault has been said to start and not yet to end. */
  get failing(): boolean {
    return this.#since !== null;
  }

  /**
   * A try failed with `error`, while what `waiting` counts waits for it to work (`{waiting: 12}`
   * clicks, say); its counts go on the lines said.
   */
  failed(error: unknown, waiting: Record<string, number>): void {
    const now = this.#now();
    if (this.#since === null) {
      if (!Object.values(waiting).some((count) => count > 0)) return;
      this.#since = this.#saidAt = now;
      this.#failures = 1;
      this.#options.log(
        logLine("error", this.#options.started, { ...waiting, error: describeError(error) }),
      );
      return;
    }
    this.#failures++;
    if (now - this.#saidAt < (this.#options.reminderMs ?? 60_000)) return;
    this.#saidAt = now;
    this.#options.log(logLine("warn", this.#options.lasting, {
      ...waiting,
      failingForMs: now - this.#since,
      failures: this.#failures,
      error: error instanceof Error ? error.message : String(error),
    }));
  }

  /** A try worked: a fault said to have started is said to have ended. */
  succeeded(): void {
    if (this.#since === null) return;
    const now = this.#now();
    this.#options.log(logLine("info", this.#options.ended, {
      failedForMs: now - this.#since,
      failures: this.#failures,
    }));
    this.#since = null;
  }
}
