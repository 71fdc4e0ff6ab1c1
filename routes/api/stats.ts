/**
 * `GET /api/stats`: service-wide figures over live links.
 * @module
 */
import { Hono } from "hono";
import { jsonResponse, type RouteSpec } from "../../lib/openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { stats } from "../../lib/stats/schema.ts";
import { EXAMPLE_ORIGIN } from "../_lib/examples.ts";
import { readStats } from "../../lib/stats/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Stats",
    summary: "Service-wide figures",
    description: "Figures over live links only: a removed or expired link's share leaves every " +
      "figure. Bots and link-preview crawlers count only under the device `bot`. These " +
      "figures may lag a visit by at most `STATS_LAG_SECONDS` (default 60); each top link's " +
      "`clicks` by at most 2 seconds.",
    responses: {
      200: jsonResponse("The figures", {
        schema: stats,
        example: {
          links: 2,
          clicks: 12,
          days: [
            { date: "2026-10-27", links: 0, clicks: 0 },
            { date: "2026-10-28", links: 0, clicks: 0 },
            { date: "2026-10-29", links: 0, clicks: 0 },
            { date: "2026-10-30", links: 0, clicks: 0 },
            { date: "2026-10-31", links: 0, clicks: 0 },
            { date: "2026-11-01", links: 0, clicks: 0 },
            { date: "2026-11-02", links: 2, clicks: 12 },
          ],
          top: [{ slug: "hello", shortUrl: `${EXAMPLE_ORIGIN}/hello`, title: "", clicks: 12 }],
          referrers: [{ name: "direct", clicks: 9 }, { name: "news.example", clicks: 3 }],
          devices: [{ name: "mobile", clicks: 8 }, { name: "desktop", clicks: 4 }],
          countries: [{ name: "DE", clicks: 7 }, { name: "unknown", clicks: 5 }],
        },
      }),
    },
    rateLimit: RATE_LIMITS.stats,
  },
};

/** The route: the stats document. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.stats), async (c) => {
    const figures = await readStats(deps.store, { baseUrl: deps.config.baseUrl });
    return c.json(figures, 200, { "Cache-Control": "no-store" });
  });
}
