/**
 * `POST /api/create`: makes one link.
 * @module
 */
import { Hono } from "hono";
import { createLink, createLinkInput, toLinkView } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** The route: 201 with the new link. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().post("/", rateLimit(deps, RATE_LIMITS.create), async (c) => {
    const input = parseInput(createLinkInput, await readObjectBody(c));
    const record = await createLink(store, input, { serviceHost: config.serviceHost });
    const view = toLinkView(record, { baseUrl: config.baseUrl, now: store.now() });
    return c.json(view, 201, { Location: view.shortUrl });
  });
}
