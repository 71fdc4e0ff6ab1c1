/**
 * The OpenAPI description of `DELETE /api/remove`, beside its handler.
 * @module
 */
import { linkActionDone, slugQuery } from "../../lib/links/mod.ts";
import {
  errorResponseSpec,
  jsonResponseSpec,
  NO_LIVE_LINK,
  type RouteSpec,
} from "../_openapi/mod.ts";

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
      200: jsonResponseSpec("The link is gone", {
        schema: linkActionDone,
        example: { ok: true, slug: "hello" },
      }),
      400: errorResponseSpec("No slug, or one no link could have", "invalid slug"),
      404: NO_LIVE_LINK,
    },
  },
};
