/**
 * The OpenAPI description of `POST /api/bulk`, beside its handler.
 * @module
 */
import { bulkInput, bulkRow } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { z } from "zod";
import { ReservedSlugError } from "../../lib/errors.ts";
import {
  documentAs,
  errorResponseSpec,
  jsonResponseSpec,
  type RouteSpec,
} from "../_openapi/mod.ts";
import { EXAMPLE_LINK } from "../_lib/examples.ts";
import { bulkEntry } from "../../lib/links/mod.ts";
// Rows are taken as they come and parsed one by one; the document shows what each must be.
documentAs(bulkInput.shape.urls.element, bulkRow);

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  post: {
    tag: "Links",
    summary: "Make up to ten links",
    description: "Each row is made as `POST /api/create` would make it, on its own: a failed " +
      "row undoes nothing and the answer is 200 whatever the rows did, one entry per row in " +
      "order. `pass` protects every link made. A custom slug repeated in one request fails on " +
      "its later rows. More than ten rows is refused whole. A browser's form post (a form " +
      "body and `Accept: text/html`) answers 303 to `/?bulk=<id>`, the start page with each row's outcome for the browser " +
      "that sent it (a cookie, `lapse_bulk`, says so for an hour); one that is refused gets the " +
      "start page again, with the reason, under the status below.",
    body: {
      schema: bulkInput,
      example: { urls: ["example.com/a/long/path", { url: "example.com/two", slug: "docs" }] },
    },
    responses: {
      200: jsonResponseSpec("One entry per row, in order", {
        schema: z.array(bulkEntry),
        example: [
          { ok: true, link: EXAMPLE_LINK },
          {
            ok: false,
            url: "example.com/two",
            error: new ReservedSlugError("docs").message,
          },
        ],
      }),
      303: {
        description: "Sent by a browser's plain HTML form: on to the start page with each " +
          "row's outcome",
        headers: {
          Location: { description: "The outcome's page", example: "/?bulk=Qm9vayBvZiBsaW5rcw" },
          "Set-Cookie": { description: "`lapse_bulk`: this browser sent the post, for an hour" },
        },
      },
      400: errorResponseSpec("Bad JSON, no rows, or more than ten", "max 10 links per request"),
    },
    rateLimit: RATE_LIMITS.bulk,
  },
};
