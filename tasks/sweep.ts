/**
 * `deno task sweep`: removes expired links from the configured store once, as the hourly job does.
 * @module
 */
import { ConfigError, loadConfig } from "../fresh.config.ts";
import { runSweep } from "../lib/links/mod.ts";
import { openStore } from "../lib/kv/store.ts";
import { repairRanks } from "../lib/tallies/rank.ts";

if (import.meta.main) {
  try {
    const config = loadConfig();
    const store = await openStore(config.kvPath, { ttlMs: config.linkTtlMs });
    const report = await runSweep(store);
    // Names left out of place (by this run's failed rerank, or a process that stopped) are
    // placed before the process goes, or the task fails.
    console.log(JSON.stringify({ ...report, reranked: await repairRanks(store) }));
    store.kv.close();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
