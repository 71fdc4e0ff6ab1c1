/**
 * The OpenAPI description of `DELETE /api/remove`, beside its handler.
 * @module
 */
import { linkConfirmation, slugQuery } from "../../lib/links/mod.ts";
import { errorResponse, jsonResponse, NO_LIVE_LINK, type RouteSpec } from "../_openapi/mod.ts";

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
