/**
 * Assembling the app's dependencies from the configuration and an open store.
 * @module
 */
import type { Config } from "../../fresh.config.ts";
import { ClickBuffer, type ClickBufferOptions } from "../../lib/clicks/mod.ts";
import type { Store } from "../../lib/kv/store.ts";
import { LinkCache } from "../../lib/links/cache.ts";
import { RemovalWatch, type RemovalWatchOptions } from "../../lib/links/removal_watch.ts";
import { describeError, type Logger, logLine, stdoutLogger } from "../../lib/log/mod.ts";
import { FaultLog } from "../../lib/log/fault.ts";
import { createMetrics } from "../../lib/metrics/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { UNLOCK_PER_LINK, unlockKeyOnUse } from "../../lib/unlock/mod.ts";
import type { AppDeps } from "./env.ts";
import { HostBlocklist } from "../../lib/blocklist/mod.ts";
import type { CreateLinkOptions } from "../../lib/links/create.ts";

/** Options of {@linkcode createDeps}. */
export interface CreateDepsOptions {
  /** Where log lines go; default one JSON line each to stdout. */
  log?: Logger;
  /** Options of the click buffer. */
  clicks?: ClickBufferOptions;
  /** The blocked destination hosts; default an empty list. */
  blocklist?: HostBlocklist;
  /** Options of the removal watch (how often it reads the store, its clock). */
  removals?: RemovalWatchOptions;
}

/** The dependencies every route is built with; each call gets its own metrics registry. */
export async function createDeps(
  config: Config,
  store: Store,
  options: CreateDepsOptions = {},
): Promise<AppDeps> {
  const rateLimits = [...Object.values(RATE_LIMITS).map((rule) => rule.name), UNLOCK_PER_LINK.name];
  const log = options.log ?? stdoutLogger();
  const metrics = createMetrics({ rateLimits });
  const unlockKey = unlockKeyOnUse(store, config.cookieSecret);
  // Loaded now when the store is up; when it is down, on the first unlock after it is back.
  await unlockKey().catch(() => {});
  const linkCache = new LinkCache();
  return {
    config,
    store,
    linkCache,
    removals: new RemovalWatch(linkCache, store.kv, options.removals),
    unlockKey,
    log,
    metrics,
    blocklist: options.blocklist ?? new HostBlocklist(),
    clicks: new ClickBuffer(store, {
      statsLagMs: config.statsLagMs,
      log: (message, error) => log(logLine("error", message, { error: describeError(error) })),
      // Said once as it starts, with how many clicks wait; not each second it lasts.
      flushFault: new FaultLog({
        log,
        started: "click flush failed, will retry",
        lasting: "click flush still failing",
        ended: "click flush works again",
      }),
      onRecorded: (visits) => metrics.clicksRecorded.inc(visits),
      onFlushed: (outcome) => metrics.clicksFlushed.inc(outcome.clicks + outcome.bots),
      ...options.clicks,
    }),
  };
}

/**
 * What a new link's destination is judged by: not this service (its host, or where it listens),
 * not a blocked host.
 */
export function destinationRules(deps: AppDeps): CreateLinkOptions {
  const { config } = deps;
  return {
    serviceHost: config.serviceHost,
    destination: {
      listening: deps.listening ?? { hostname: config.hostname, port: config.port },
      blocked: (hostname) => deps.blocklist.blocks(hostname),
    },
  };
}
