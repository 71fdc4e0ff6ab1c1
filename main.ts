/**
 * The production entry: read the configuration, open the store, serve, sweep every hour.
 * @module
 */
import { ConfigError, loadConfig } from "./fresh.config.ts";
import { startServer } from "./server.ts";

if (import.meta.main) {
  try {
    const server = await startServer(loadConfig());
    server.stopOnSignals();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
