/**
 * The OpenAPI description of `GET /api/preview`, beside its handler.
 * @module
 */
import { z } from "zod";
import { errorBody, previewRefusalBody } from "../../lib/error_bodies.ts";
import { jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";
import { pagePreview, previewQuery } from "../../lib/preview/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Preview",
    summary: "Preview a page",
    description: "Fetches the page (5 s, 512 KiB, at most 5 redirects, each hop checked) and " +
      "answers what its head says. An unreachable page is 200 with empty fields. A name that " +
      "is not a public host or a URL with credentials (`host`), an inner address, literal or " +
      "resolved (`private`), or a port other than 80 and 443 (`port`) is refused with 400 and " +
      "that `reason`. The connection goes to the address checked.",
    query: previewQuery,
    parameterExample: { url: "example.com" },
    responses: {
      200: jsonResponseSpec(
        "What the page says about itself; empty strings where it says nothing",
        {
          schema: pagePreview,
          example: {
            url: "https://example.com/",
            host: "example.com",
            title: "Example Domain",
            description: "",
            siteName: "",
            image: "",
            canonical: "",
          },
        },
      ),
      400: jsonResponseSpec(
        "No url, an address that is not http(s), or a refused one (with `reason`)",
        {
          schema: z.union([previewRefusalBody, errorBody]),
          example: { error: 'host "printer.local" is not a public host name', reason: "host" },
        },
      ),
    },
    rateLimit: RATE_LIMITS.preview,
  },
};
