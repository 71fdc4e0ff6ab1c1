/**
 * The OpenAPI description of `GET /api/check`, beside its handler.
 * @module
 */
import { checkQuery, checkResult } from "../../lib/links/mod.ts";
import { errorResponseSpec, jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "Whether a name is a slug, reserved, or taken",
    description: "Every request with a `slug` parameter answers 200, whatever it holds: a name " +
      "that could never be a custom slug (`a`, `a b`) answers `valid: false`. An expired " +
      "link's slug is free: `exists` is false and it may be claimed. The reserved check " +
      "ignores case. A name is free to claim when `valid` is true and `exists` false. Not " +
      "rate limited.",
    query: checkQuery,
    parameterExample: { slug: "hello" },
    responses: {
      200: jsonResponseSpec("What the name is worth, and what the store knows of it", {
        schema: checkResult,
        example: { slug: "hello", exists: true, reserved: false, valid: true },
      }),
      400: errorResponseSpec("No `slug` parameter", "slug is required"),
    },
  },
};
