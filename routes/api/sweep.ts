/**
 * `/api/sweep`: maintenance. GET lists what the sweep would remove (and dates legacy links; HEAD
 * does not), DELETE lists it too or removes one link with `?slug=`, POST `{"confirm":"sweep"}`
 * runs it.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  expiredListing,
  type LinkConfirmation,
  linkConfirmation,
  listExpiredLinks,
  optionalSlugQuery,
  runSweep,
  stampUndatedLinks,
  sweepListing,
  type SweepReport,
  sweepReport,
} from "../../lib/links/mod.ts";
import { errorResponse, jsonResponse, NO_LIVE_LINK, type RouteSpec } from "../_openapi/mod.ts";
import { countSweeps } from "../../lib/metrics/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { readObjectBody, refuseMarkedBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { removeLinkOf } from "../_lib/remove.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** The body that runs the sweep. */
export const sweepRunInput = z.object({
  confirm: z.literal("sweep", { error: 'confirm must be "sweep" to run the sweep' })
    .describe("Must be `sweep`: a safeguard against running it by mistake, not a credential"),
});

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
      200: jsonResponse("The expired links, and how many legacy links were dated", {
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
      200: jsonResponse("The link is gone (with `slug`), or the listing (without)", {
        schema: z.union([linkConfirmation, expiredListing]),
        example: { ok: true, slug: "hello" },
      }),
      400: errorResponse("A blank or impossible slug", "slug is required"),
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
      200: jsonResponse("What the sweep removed", {
        schema: sweepReport,
        example: { swept: 1, slugs: ["old"] },
      }),
      400: errorResponse("No confirmation", 'confirm must be "sweep" to run the sweep'),
    },
    rateLimit: RATE_LIMITS.sweep,
  },
};

/** The route: the three methods share one rate allowance. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { store } = deps;
  const limit = rateLimit(deps, RATE_LIMITS.sweep);
  return new Hono<AppEnv>()
    .get("/", limit, async (c) => {
      // HEAD answers as GET would, and changes nothing.
      const stamped = c.req.method === "HEAD" ? 0 : await stampUndatedLinks(store);
      return c.json({ ...(await listExpiredLinks(store)), stamped });
    })
    .delete("/", limit, async (c) => {
      refuseMarkedBody(c);
      const { slug } = parseQuery(c, optionalSlugQuery);
      if (slug === undefined) return c.json(await listExpiredLinks(store));
      await removeLinkOf(deps, slug);
      return c.json({ ok: true, slug } satisfies LinkConfirmation);
    })
    .post("/", limit, async (c) => {
      parseInput(sweepRunInput, await readObjectBody(c, { forms: false }));
      const { swept, slugs } = await runSweep(store, { onSwept: countSweeps(deps.metrics) });
      return c.json({ swept, slugs } satisfies SweepReport);
    });
}
