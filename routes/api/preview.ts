/**
 * `GET /api/preview?url=`: what a page says about itself, fetched without reaching inward.
 * @module
 */
import { Hono } from "hono";
import { previewPage, previewQuery } from "../../lib/preview/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
export { spec } from "./preview_spec.ts";

/** The route: 200 with the preview, 400 with a `reason` when the address is refused. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.preview), async (c) => {
    const { url } = parseQuery(c, previewQuery);
    const preview = await previewPage(url, {
      ...deps.preview,
      serviceHost: deps.config.serviceHost,
      blocked: (hostname) => deps.blocklist.blocks(hostname),
    });
    return c.json(preview);
  });
}
