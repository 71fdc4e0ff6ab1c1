/**
 * Retries store operations that failed only because another process held the write lock.
 * @module
 */
import { StoreUnavailableError } from "../errors.ts";

/** Options of {@linkcode retryLocked}. */
export interface RetryOptions {
  /** Attempts before giving up; default 20. */
  attempts?: number;
}

/** Runs `operation`, again after a short random pause while the store reports it is locked. */
export async function retryLocked<T>(
  operation: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? 20;
  for (let attempt = 1;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= attempts || !isLocked(error)) throw error;
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

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
