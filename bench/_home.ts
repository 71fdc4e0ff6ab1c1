/**
 * The home page as the server renders it, for the JavaScript-size figure.
 * @module
 */
import { loadConfig } from "../fresh.config.ts";
import { createStore } from "../lib/kv/store.ts";
import { silentLogger } from "../lib/log/mod.ts";
import { createDeps } from "../routes/_lib/deps.ts";
import { createApp } from "../routes/mod.ts";

/** The HTML of `/`. */
export async function homePageHtml(): Promise<string> {
  const kv = await Deno.openKv(":memory:");
  try {
    const app = createApp(
      await createDeps(loadConfig({}), createStore(kv), { log: silentLogger() }),
    );
    return await (await app.request("/")).text();
  } finally {
    kv.close();
  }
}
