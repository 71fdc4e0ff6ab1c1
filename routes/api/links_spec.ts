/**
 * The OpenAPI description of `GET /api/links`, beside its handler.
 * @module
 */
import { z } from "zod";
import { linkListEntry } from "../../lib/links/mod.ts";
import { jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { EXAMPLE_LIST_ENTRY, EXAMPLE_PROTECTED_ENTRY } from "../_lib/examples.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "Every live link",
    description: "A bare JSON array, newest first, streamed from the store. Expired links are " +
      "left out. A protected link's `url` and `host` are `null` unless the request carries " +
      "its unlock cookie.",
    responses: {
      200: jsonResponseSpec("Every live link, newest first", {
        schema: z.array(linkListEntry),
        example: [EXAMPLE_LIST_ENTRY, EXAMPLE_PROTECTED_ENTRY],
      }),
    },
    rateLimit: RATE_LIMITS.links,
    readsUnlockCookie: true,
  },
};
