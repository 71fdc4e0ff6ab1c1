/**
 * The OpenAPI description of `GET /api/unshorten`, beside its handler.
 * @module
 */
import { unshortenQuery, unshortenView } from "../../lib/links/mod.ts";
import {
  errorResponseSpec,
  jsonResponseSpec,
  linkGone,
  NEVER_A_LINK,
  type RouteSpec,
} from "../_openapi/mod.ts";
import { EXAMPLE_ORIGIN, EXAMPLE_UNSHORTEN } from "../_lib/examples.ts";
/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "Expand a slug or short URL",
    description: "Takes a bare slug or a full short URL of this service (its host or the `www.` " +
      "variant; another host is an invalid slug). A protected link's destination is `null` " +
      "unless the request carries its unlock cookie. An expired link answers 410, as does one " +
      "whose last visit used it up (`usedUp`, until its deadline), or whose destination host " +
      "the operator blocked (`blocked`); one that never existed 404. " +
      "Not rate limited.",
    query: unshortenQuery,
    parameterExample: { slug: `${EXAMPLE_ORIGIN}/hello` },
    responses: {
      200: jsonResponseSpec("The link, with its clicks", {
        schema: unshortenView,
        example: EXAMPLE_UNSHORTEN,
      }),
      400: errorResponseSpec("No reference, or not one of this service's links", "invalid slug"),
      404: NEVER_A_LINK,
      410: linkGone({ usedUp: true, blocked: true }),
    },
    readsUnlockCookie: true,
  },
};
