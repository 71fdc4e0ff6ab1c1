/**
 * Assembling the app's dependencies from the configuration and an open store.
 * @module
 */
import type { Config } from "../../fresh.config.ts";
import type { Store } from "../../lib/kv/store.ts";
import { type Logger, stdoutLogger } from "../../lib/log/mod.ts";
import { createMetrics } from "../../lib/metrics/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { loadUnlockKey, UNLOCK_PER_LINK } from "../../lib/unlock/mod.ts";
import type { AppDeps } from "./env.ts";

/** Options of {@linkcode createDeps}. */
export interface DepsOptions {
  /** Where log lines go; default one JSON line each to stdout. */
  log?: Logger;
}

/** The dependencies every route is built with; each call gets its own metrics registry. */
export async function createDeps(
  config: Config,
  store: Store,
  options: DepsOptions = {},
): Promise<AppDeps> {
  const rateLimits = [...Object.values(RATE_LIMITS).map((rule) => rule.name), UNLOCK_PER_LINK.name];
  return {
    config,
    store,
    unlockKey: await loadUnlockKey(store, config.cookieSecret),
    log: options.log ?? stdoutLogger(),
    metrics: createMetrics({ rateLimits }),
  };
}
