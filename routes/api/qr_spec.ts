/**
 * The OpenAPI description of `GET /api/qr`, beside its handler.
 * @module
 */
import { z } from "zod";
import { slugQuery } from "../../lib/links/mod.ts";
import { errorResponseSpec, linkNotFound, type RouteSpec } from "../_openapi/mod.ts";

/** The longest a client may keep a QR code, in seconds: a day, or less when the link ends sooner. */
export const QR_MAX_AGE_SECONDS = 86_400;

/** The `Content-Type` of a QR code. */
export const SVG_TYPE = "image/svg+xml";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "QR code of a link",
    description: "An SVG QR code (error correction M, a four-module quiet zone) holding the " +
      "link's short URL, never its destination, so a protected link's code is served too. " +
      "Cached for a day at most, and never past the link's deadline. Not rate limited.",
    query: slugQuery,
    parameterExample: { slug: "hello" },
    responses: {
      200: {
        description: "The QR code",
        content: {
          [SVG_TYPE]: {
            schema: z.string(),
            example: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 33 33" ' +
              'shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h33v33H0z"/>' +
              '<path stroke="#000000" d="M4 4.5h7m1 0h1…"/></svg>',
          },
        },
        headers: {
          "Cache-Control": {
            description: "`public`, for a day at most and never past the link's deadline",
            example: "public, max-age=86400",
          },
        },
      },
      400: errorResponseSpec("No slug, or one no link could have", "slug is required"),
      404: linkNotFound("No live link has the slug (an expired one included)"),
    },
  },
};
