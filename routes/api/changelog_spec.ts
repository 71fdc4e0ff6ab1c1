/**
 * The OpenAPI description of `GET /api/changelog`, beside its handler.
 * @module
 */
import { jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";
import { changelogDocument, changelogDocumentSchema } from "../../lib/version/changelog.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Service",
    summary: "Every release",
    description: "The version document plus every release, newest first. A static document: " +
      "it answers even when the store is down. Not rate limited.",
    responses: {
      200: jsonResponseSpec("The release history", {
        schema: changelogDocumentSchema,
        example: changelogDocument(),
      }),
    },
    store: false,
  },
};
