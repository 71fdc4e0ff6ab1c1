/**
 * `GET /api/health`: whether this instance can use its store, answered within 2 s.
 * @module
 */
import { Hono } from "hono";
import { checkStore, healthyReport, unhealthyReport } from "../../lib/health/mod.ts";
import { jsonResponse, type RouteSpec } from "../_openapi/mod.ts";
import { CURRENT_RELEASE } from "../../lib/version/changelog.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { logFailure } from "../_middleware/errors.tsx";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Operations",
    summary: "Health",
    description: "Writes a short-lived probe key of this instance and reads it back. Answers " +
      "within 2 s whatever the store does: 503 when it fails or hangs. Not rate limited, never " +
      "cached (`Cache-Control: no-store`).",
    responses: {
      200: jsonResponse("The store answered a write and a read", {
        schema: healthyReport,
        example: { ok: true, store: "ok", version: CURRENT_RELEASE.version },
      }),
      503: jsonResponse("The store failed, or did not answer within 2 s", {
        schema: unhealthyReport,
        example: { ok: false, store: "down", error: "storage did not answer within 2000 ms" },
      }),
    },
  },
};

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
