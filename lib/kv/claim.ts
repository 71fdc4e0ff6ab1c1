/**
 * Claiming a scheduled run, so that of the instances sharing a store one does it: each
 * instance's timer fires, the first to claim the run does the work, the others leave it.
 * @module
 */
import { jobRunKey } from "./keys.ts";
import type { Store } from "./store.ts";

/**
 * Claims the run of `job` named `run` (its scheduled time, say) for `holdMs`. True when this
 * caller should do it: it claimed the run, or the store could not say (a duplicate run of an
 * idempotent job costs work, a skipped one costs the run). False when another caller has.
 */
export async function claimRun(
  store: Store,
  job: string,
  run: number,
  holdMs: number,
): Promise<boolean> {
  const key = jobRunKey(job, run);
  try {
    const claimed = await store.kv.atomic()
      .check({ key, versionstamp: null })
      .set(key, store.now(), { expireIn: holdMs })
      .commit();
    return claimed.ok;
  } catch {
    return true;
  }
}
