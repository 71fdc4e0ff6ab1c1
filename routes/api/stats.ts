/**
 * `GET /api/stats`: service-wide figures over live links; `?slug=` gives one link's.
 * @module
 */
import { Hono } from "hono";
import { LinkExpiredError, LinkNotFoundError } from "../../lib/errors.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { readLinkFigures, readStats, toLinkStatsView } from "../../lib/stats/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
import { statsQuery } from "../../lib/links/query.ts";
export { spec } from "./stats_spec.ts";

/** The route: the stats document, or one link's figures. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.stats), async (c) => {
    const { slug } = parseQuery(c, statsQuery);
    if (slug === undefined) {
      const figures = await readStats(store, { baseUrl: config.baseUrl });
      return c.json(figures, 200, { "Cache-Control": "no-store" });
    }
    const now = store.now();
    const found = await readLinkFigures(store, slug, now);
    if (found.status === "missing") throw new LinkNotFoundError(slug);
    if (found.status === "expired") throw new LinkExpiredError(found.slug, found.expiresAt);
    const view = toLinkStatsView(found.figures, { baseUrl: config.baseUrl, now });
    return c.json(view, 200, { "Cache-Control": "no-store" });
  });
}
