/**
 * `POST /api/bulk`: makes up to ten links; partial success is a normal outcome.
 * @module
 */
import { Hono } from "hono";
import { bulkInput, createLinks, toLinkView } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** The route: 200 with one `{ok, link}` or `{ok, url, error}` per row, in order. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().post("/", rateLimit(deps, RATE_LIMITS.bulk), async (c) => {
    const input = parseInput(bulkInput, await readObjectBody(c));
    const outcomes = await createLinks(store, input, { serviceHost: config.serviceHost });
    const now = store.now();
    return c.json(
      outcomes.map((outcome) =>
        outcome.ok
          ? { ok: true, link: toLinkView(outcome.record, { baseUrl: config.baseUrl, now }) }
          : outcome
      ),
    );
  });
}
