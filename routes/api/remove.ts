/**
 * `DELETE /api/remove?slug=`: removes a link at once; no password needed.
 * @module
 */
import { Hono } from "hono";
import { type LinkConfirmation, linkConfirmation, slugQuery } from "../../lib/links/mod.ts";
import { errorResponse, jsonResponse, NO_LIVE_LINK, type RouteSpec } from "../_openapi/mod.ts";
import { refuseMarkedBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { removeLinkOf } from "../_lib/remove.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  delete: {
    tag: "Links",
    summary: "Remove a link now",
    description: "Removes the link, its destination and its clicks at once. Needs no password, " +
      "a protected link included.",
    query: slugQuery,
    parameterExample: { slug: "hello" },
    responses: {
      200: jsonResponse("The link is gone", {
        schema: linkConfirmation,
        example: { ok: true, slug: "hello" },
      }),
      400: errorResponse("No slug, or one no link could have", "invalid slug"),
      404: NO_LIVE_LINK,
    },
  },
};

/** The route: 200 `{ok: true, slug}`, or 404 for an unknown or expired slug. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().delete("/", async (c) => {
    refuseMarkedBody(c);
    const { slug } = parseQuery(c, slugQuery);
    await removeLinkOf(deps, slug);
    return c.json({ ok: true, slug } satisfies LinkConfirmation);
  });
}
