/**
 * `GET /api/preview?url=`: what a page says about itself, fetched without reaching inward.
 * @module
 */
import { Hono } from "hono";
import { InvalidInputError } from "../../lib/errors.ts";
import { previewPage } from "../../lib/preview/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** The route: 200 with the preview, 400 with a `reason` when the address is refused. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.preview), async (c) => {
    const url = c.req.query("url");
    if (url === undefined || url.trim() === "") throw new InvalidInputError("url is required");
    const preview = await previewPage(url, {
      ...deps.preview,
      serviceHost: deps.config.serviceHost,
    });
    return c.json(preview);
  });
}
