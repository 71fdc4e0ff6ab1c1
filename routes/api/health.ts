/**
 * `GET /api/health`: whether this instance can use its store, answered within 2 s.
 * @module
 */
import { Hono } from "hono";
import { checkStore } from "../../lib/health/mod.ts";
import { CURRENT_RELEASE } from "../../lib/version/changelog.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { logFailure } from "../_middleware/errors.tsx";
export { spec } from "./health_spec.ts";

/** The route: 200 `{ok: true, store: "ok", version}`, or 503 `{ok: false, store: "down", error}`. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  // Each instance probes its own key, so instances sharing a store never race on it.
  const instanceId = crypto.randomUUID();
  return new Hono<AppEnv>().get("/", async (c) => {
    const health = await checkStore(deps.store, { instanceId });
    c.header("Cache-Control", "no-store");
    if (health.ok) return c.json({ ok: true, store: "ok", version: CURRENT_RELEASE.version });
    logFailure(c, { log: deps.log, msg: "health check failed", error: health.cause });
    return c.json({ ok: false, store: "down", error: health.error }, 503);
  });
}
