/**
 * The OpenAPI description of `/api/sweep`, beside its handler.
 * @module
 */
import { z } from "zod";
import {
  expiredListing,
  linkActionDone,
  optionalSlugQuery,
  sweepListing,
  sweepReport,
  sweepRunInput,
} from "../../lib/links/mod.ts";
import {
  errorResponseSpec,
  jsonResponseSpec,
  NO_LIVE_LINK,
  type RouteSpec,
} from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";

const EXAMPLE_EXPIRED = { slug: "old", expiresAt: "2026-11-01T09:30:00.000Z" };
const MAINTENANCE =
  "Maintenance, not public API. GET, DELETE and POST share one allowance of 4 a minute.";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Maintenance",
    summary: "List what the sweep would remove",
    description: `Lists the expired links, oldest deadline first, and gives legacy links ` +
      `without a deadline one (seven days from now). ${MAINTENANCE}`,
    responses: {
      200: jsonResponseSpec("The expired links, and how many legacy links were dated", {
        schema: sweepListing,
        example: { expired: [EXAMPLE_EXPIRED], count: 1, stamped: 0 },
      }),
    },
    rateLimit: RATE_LIMITS.sweep,
  },
  delete: {
    tag: "Maintenance",
    summary: "Remove one link, or list what the sweep would remove",
    description: `With \`slug\`, removes that live link at once, as \`DELETE /api/remove\` ` +
      `does; without, lists the expired links as GET does (dating nothing). ${MAINTENANCE}`,
    query: optionalSlugQuery,
    parameterExample: { slug: "hello" },
    responses: {
      200: jsonResponseSpec("The link is gone (with `slug`), or the listing (without)", {
        schema: z.union([linkActionDone, expiredListing]),
        example: { ok: true, slug: "hello" },
      }),
      400: errorResponseSpec("A blank or impossible slug", "slug is required"),
      404: NO_LIVE_LINK,
    },
    rateLimit: RATE_LIMITS.sweep,
  },
  post: {
    tag: "Maintenance",
    summary: "Run the sweep",
    description: `Removes every expired link with its clicks, as the hourly job does. Without ` +
      `the confirmation nothing is removed. ${MAINTENANCE}`,
    body: { schema: sweepRunInput, example: { confirm: "sweep" } },
    responses: {
      200: jsonResponseSpec("What the sweep removed", {
        schema: sweepReport,
        example: { swept: 1, slugs: ["old"] },
      }),
      400: errorResponseSpec("No confirmation", 'confirm must be "sweep" to run the sweep'),
    },
    rateLimit: RATE_LIMITS.sweep,
  },
};
