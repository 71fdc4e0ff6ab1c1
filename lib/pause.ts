/**
 * Waiting: a promise that resolves after a while.
 * @module
 */

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
