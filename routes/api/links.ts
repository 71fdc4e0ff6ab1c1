/**
 * `GET /api/links`: every live link, newest first, as a bare JSON array streamed from the store.
 * @module
 */
import { Hono } from "hono";
import { listLinkEntries } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { jsonArray, streamResponse } from "../_lib/stream.ts";
import { cacheControlOf, readUnlocks } from "../_lib/unlock.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
export { spec } from "./links_spec.ts";

/** The route: a JSON array of list entries. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get(
    "/",
    rateLimit(deps, RATE_LIMITS.links),
    async (c) => {
      const unlocks = await readUnlocks(c, deps);
      const entries = listLinkEntries(deps.store, {
        baseUrl: deps.config.baseUrl,
        unlocked: (record) => unlocks.get(record.slug) === record.id,
      });
      return streamResponse(jsonArray(entries), {
        "Content-Type": "application/json; charset=utf-8",
        // A request with an unlock cookie may see a protected destination: never compressed.
        "Cache-Control": cacheControlOf(unlocks.size > 0),
      });
    },
  );
}
