/**
 * Retries store operations that failed only because another process held the write lock.
 * @module
 */
import { StoreUnavailableError } from "../errors.ts";
import { pause } from "../pause.ts";

/** Options of {@linkcode retryLocked}. */
export interface RetryOptions {
  /** How long to keep trying while the store is locked, in ms; default 5,000. */
  withinMs?: number;
}

/**
 * Runs `operation`, again after a short random pause while the store reports it is locked, for
 * as long as `withinMs` allows. The budget is time, not a count of tries: a process starved of
 * the processor (a busy machine, two processes on one file) tries less often, not less long.
 */
export async function retryLocked<T>(
  operation: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const deadline = performance.now() + (options.withinMs ?? 5000);
  for (let attempt = 1;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isLocked(error) || performance.now() >= deadline) throw error;
      await pause(Math.min(2 ** attempt, 50) * Math.random() + 1);
    }
  }
}

/** Whether `error` is the lock contention two processes on one file produce. */
export function isLocked(error: unknown): boolean {
  const cause = error instanceof StoreUnavailableError ? error.cause : error;
  return cause instanceof Error && /database is locked|database table is locked|busy/i.test(
    cause.message,
  );
}
