/**
 * The hourly job: the sweep of expired links, then the repair of the tallies' ranking, run by
 * one of the instances sharing a store.
 * @module
 */
import { StoreUnavailableError } from "../errors.ts";
import { claimRun } from "../kv/claim.ts";
import type { Store } from "../kv/store.ts";
import type { LinkCache } from "../links/cache.ts";
import { runSweep, type SweepOptions } from "../links/sweep.ts";
import { describeError, type Logger, logLine } from "../log/mod.ts";
import { repairRanks } from "../tallies/rank.ts";

const HOUR_MS = 3_600_000;

/** What the hourly job reports to. */
export interface HourlyJobDeps {
  log: Logger;
  onSwept?: SweepOptions["onSwept"];
  /** This process's link cache, which forgets each link swept. */
  cache?: LinkCache;
}

/**
 * The sweep, then the ranks' repair (`repairRanks`), each logged; a failed repair is logged and
 * a failed sweep thrown after it. The instance that claims the hour runs it (`claimRun`); when
 * the claim cannot be read the job runs anyway, as both steps are safe to run twice.
 */
export async function runHourlyJob(store: Store, deps: HourlyJobDeps): Promise<void> {
  // The hour, rounded: every instance's timer fires at minute 0 of its own clock.
  const hour = Math.round(store.now() / HOUR_MS) * HOUR_MS;
  const named = { hour: new Date(hour).toISOString() };
  try {
    if (!(await claimRun(store, { job: "hourly", run: hour, holdMs: 2 * HOUR_MS }))) {
      deps.log(logLine("info", "hourly job left to another instance", named));
      return;
    }
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    deps.log(logLine("error", "hourly job not claimed; running it", {
      ...named,
      error: describeError(error),
    }));
  }
  try {
    const report = await runSweep(store, { onSwept: deps.onSwept, cache: deps.cache });
    deps.log(logLine("info", "sweep", { swept: report.swept, stamped: report.stamped }));
  } finally {
    try {
      deps.log(logLine("info", "ranks repaired", { reranked: await repairRanks(store) }));
    } catch (error) {
      deps.log(logLine("error", "ranks repair failed", { error: describeError(error) }));
    }
  }
}
