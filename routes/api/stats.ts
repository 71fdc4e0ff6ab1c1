/**
 * `GET /api/stats`: service-wide figures over live links.
 * @module
 */
import { Hono } from "hono";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { readStats } from "../../lib/stats/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** The route: the stats document. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.stats), async (c) => {
    const stats = await readStats(deps.store, { baseUrl: deps.config.baseUrl });
    return c.json(stats, 200, { "Cache-Control": "no-store" });
  });
}
