/**
 * Waiting for an event the test cannot be told of directly: a condition looked at again on every
 * turn of the event loop (in-process), or a probe of another process asked again and again.
 * @module
 */
import { pause } from "../../lib/pause.ts";

/**
 * Waits until `done()` holds, looked at again after every turn of the event loop, for `ms`
 * (default 3 s) at most, so a test that fails does not hang; whether it did.
 */
export async function until(done: () => boolean, ms = 3_000): Promise<boolean> {
  const since = performance.now();
  while (!done() && performance.now() - since < ms) await pause(0);
  return done();
}

/**
 * Asks `probe` (of another process, say) every 20 ms until it answers true or `ms` have passed;
 * the time it took, or `null`.
 */
export async function within(ms: number, probe: () => Promise<boolean>): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < ms) {
    if (await probe()) return performance.now() - started;
    await pause(20);
  }
  return null;
}
