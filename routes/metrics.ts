/**
 * `GET /metrics`: the app's figures in the Prometheus text format. Never fails for the store:
 * a store that does not answer leaves out the live-link gauge and says so in `lapse_store_up`.
 * @module
 */
import { Hono } from "hono";
import { EXPOSITION_CONTENT_TYPE, readLiveLinks, renderMetrics } from "../lib/metrics/mod.ts";
import { CURRENT_RELEASE } from "../lib/version/changelog.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
export { spec } from "./metrics_spec.ts";

/** The route: one scrape. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", async (c) => {
    const liveLinks = await readLiveLinks(deps.store);
    const text = renderMetrics(deps.metrics, {
      version: CURRENT_RELEASE.version,
      liveLinks,
      storeUp: liveLinks !== null,
      clicksWaitingSeconds: deps.clicks.waitingMs() / 1000,
    });
    return c.body(text, 200, {
      "Content-Type": EXPOSITION_CONTENT_TYPE,
      "Cache-Control": "no-store",
    });
  });
}
