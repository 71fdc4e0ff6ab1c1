/**
 * The production entry: read the configuration, open the store, serve, sweep every hour.
 * @module
 */
import { ConfigError, loadConfig } from "./fresh.config.ts";
import { startServer, StartupError } from "./server.ts";
import { readManifest } from "./tasks/bundle.ts";

if (import.meta.main) {
  try {
    const server = await startServer(loadConfig());
    // At once: a SIGTERM that comes while the manifest is read still shuts down cleanly.
    server.stopOnSignals();
    if (await readManifest() === null) {
      // `deno task start` builds first; a bare `deno run main.ts` may not have.
      console.warn(
        "islands: no bundles in static/build/, pages work without JavaScript until `deno task build` runs",
      );
    }
  } catch (error) {
    // A configuration the service cannot start with is one clear message, not a stack trace.
    if (!(error instanceof ConfigError || error instanceof StartupError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}
