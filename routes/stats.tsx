/**
 * `GET /stats`: the service-wide stats drawn as SVG on the server.
 * @module
 */
import { Hono } from "hono";
import { StatsPage } from "../components/StatsPage.tsx";
import type { Store } from "../lib/kv/store.ts";
import { RATE_LIMITS } from "../lib/rate_limit/mod.ts";
import { readStats } from "../lib/stats/mod.ts";
import type { Stats } from "../lib/stats/types.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";
import { rateLimit } from "./_middleware/rate_limit.ts";

/** Options of {@linkcode makeRoute}. */
export interface StatsPageOptions {
  /** Where the figures come from; default {@linkcode readStats}. */
  loadStats?: (store: Store) => Promise<Stats>;
}

/** The route; it shares the `/api/stats` allowance. */
export function makeRoute(deps: AppDeps, options: StatsPageOptions = {}): Hono<AppEnv> {
  const loadStats = options.loadStats ??
    ((store: Store) => readStats(store, { baseUrl: deps.config.baseUrl }));
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.stats), async () => {
    const stats = await loadStats(deps.store);
    return renderPage(<StatsPage stats={stats} />, 200, { "Cache-Control": "no-store" });
  });
}
