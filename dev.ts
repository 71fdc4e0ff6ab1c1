/**
 * The development entry: builds the island bundles when their sources changed, then serves.
 * `deno task dev` runs it under `--watch`, so every change restarts it and rebuilds what changed.
 * `dev.ts build` only builds (`deno task build`); `--force` rebuilds even when up to date.
 * @module
 */
import { ConfigError, loadConfig } from "./fresh.config.ts";
import { startServer } from "./server.ts";
import { buildIslands } from "./tasks/bundle.ts";

if (import.meta.main) {
  await buildIslands({ force: Deno.args.includes("--force") });
  if (!Deno.args.includes("build")) {
    try {
      // No signal handlers: under --watch, Ctrl-C should end the watcher, not just this run.
      await startServer(loadConfig());
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.error(error.message);
      Deno.exit(1);
    }
  }
}
