/**
 * Claiming a scheduled run, so that of the instances sharing a store one does it: each
 * instance's timer fires, the first to claim the run does the work, the others leave it.
 * @module
 */
import { jobRunKey } from "./keys.ts";
import { retryLocked } from "./retry.ts";
import type { Store } from "./store.ts";

/** A scheduled run of a job. */
export interface ScheduledRun {
  /** The job's name. */
  job: string;
  /** The run's name among the job's runs: its scheduled time, say. */
  run: number;
  /** How long the claim is kept, in ms: longer than instances' timers can be apart. */
  holdMs: number;
}

/**
 * Claims `scheduled` for this caller: true when it claimed the run, false when another caller
 * had. A store another process holds locked is waited for (`retryLocked`); a store that fails
 * throws, as every store call does.
 */
export async function claimRun(store: Store, scheduled: ScheduledRun): Promise<boolean> {
  const key = jobRunKey(scheduled.job, scheduled.run);
  const claimed = await retryLocked(() =>
    store.kv.atomic()
      .check({ key, versionstamp: null })
      .set(key, store.now(), { expireIn: scheduled.holdMs })
      .commit()
  );
  return claimed.ok;
}
