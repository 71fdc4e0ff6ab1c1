/**
 * The OpenAPI description of `GET /api/health`, beside its handler.
 * @module
 */
import { healthyReport, unhealthyReport } from "../../lib/health/mod.ts";
import { jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";
import { CURRENT_RELEASE } from "../../lib/version/changelog.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Operations",
    summary: "Health",
    description: "Writes a short-lived probe key of this instance and reads it back. Answers " +
      "within 2 s whatever the store does: 503 when it fails or hangs. Not rate limited, never " +
      "cached (`Cache-Control: no-store`).",
    responses: {
      200: jsonResponseSpec("The store answered a write and a read", {
        schema: healthyReport,
        example: { ok: true, store: "ok", version: CURRENT_RELEASE.version },
      }),
      503: jsonResponseSpec("The store failed, or did not answer within 2 s", {
        schema: unhealthyReport,
        example: { ok: false, store: "down", error: "storage did not answer within 2000 ms" },
      }),
    },
  },
};
