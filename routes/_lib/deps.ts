/**
 * Assembling the app's dependencies from the configuration and an open store.
 * @module
 */
import type { Config } from "../../fresh.config.ts";
import { ClickBuffer, type ClickBufferOptions } from "../../lib/clicks/mod.ts";
import type { Store } from "../../lib/kv/store.ts";
import { loadUnlockKey } from "../../lib/unlock/mod.ts";
import type { AppDeps } from "./env.ts";

/** Options of {@linkcode createDeps}. */
export interface CreateDepsOptions {
  /** Options of the click buffer. */
  clicks?: ClickBufferOptions;
}

/** The dependencies every route is built with. */
export async function createDeps(
  config: Config,
  store: Store,
  options: CreateDepsOptions = {},
): Promise<AppDeps> {
  return {
    config,
    store,
    unlockKey: await loadUnlockKey(store, config.cookieSecret),
    clicks: new ClickBuffer(store, options.clicks),
  };
}
