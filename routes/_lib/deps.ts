/**
 * Assembling the app's dependencies from the configuration and an open store.
 * @module
 */
import type { Config } from "../../fresh.config.ts";
import type { Store } from "../../lib/kv/store.ts";
import { loadUnlockKey } from "../../lib/unlock/mod.ts";
import type { AppDeps } from "./env.ts";

/** The dependencies every route is built with. */
export async function createDeps(config: Config, store: Store): Promise<AppDeps> {
  return { config, store, unlockKey: await loadUnlockKey(store, config.cookieSecret) };
}
