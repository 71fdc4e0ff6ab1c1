/**
 * `deno task import FILE`: loads legacy links from a JSON file of
 * `{"<slug>": "<url>" | {"url", "title"?, "clicks"?}}` into the configured store.
 * @module
 */
import { ConfigError, loadConfig } from "../fresh.config.ts";
import { InvalidInputError } from "../lib/errors.ts";
import { importLegacyLinks } from "../lib/links/mod.ts";
import { openStore } from "../lib/kv/store.ts";

if (import.meta.main) Deno.exit(await run(Deno.args));

/** Runs the import; returns the process exit code. */
export async function run(args: string[]): Promise<number> {
  const [file] = args;
  if (!file) {
    console.error("usage: deno task import FILE");
    return 2;
  }
  let data: unknown;
  try {
    data = JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    console.error(`cannot read ${file}: ${error instanceof Error ? error.message : error}`);
    return 1;
  }
  try {
    const config = loadConfig();
    const store = await openStore(config.kvPath, { ttlMs: config.linkTtlMs });
    try {
      const report = await importLegacyLinks(store, data, { serviceHost: config.serviceHost });
      for (const { slug, reason } of report.skipped) console.error(`skipped ${slug}: ${reason}`);
      console.log(`imported ${report.imported} links, skipped ${report.skipped.length}`);
      return 0;
    } finally {
      store.kv.close();
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof InvalidInputError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}
