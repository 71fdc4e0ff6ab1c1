/**
 * `GET /api/links`: every live link, newest first, as a bare JSON array streamed from the store.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { linkListEntry, listLinkEntries } from "../../lib/links/mod.ts";
import { jsonResponse, type RouteSpec } from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { EXAMPLE_LIST_ENTRY, EXAMPLE_PROTECTED_ENTRY } from "../_lib/examples.ts";
import { jsonArray, streamResponse } from "../_lib/stream.ts";
import { cacheControlOf, readUnlocks } from "../_lib/unlock.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "Every live link",
    description: "A bare JSON array, newest first, streamed from the store. Expired links are " +
      "left out. A protected link's `url` and `host` are `null` unless the request carries " +
      "its unlock cookie.",
    responses: {
      200: jsonResponse("Every live link, newest first", {
        schema: z.array(linkListEntry),
        example: [EXAMPLE_LIST_ENTRY, EXAMPLE_PROTECTED_ENTRY],
      }),
    },
    rateLimit: RATE_LIMITS.links,
    readsUnlockCookie: true,
  },
};

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
