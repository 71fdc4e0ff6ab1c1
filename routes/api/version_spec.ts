/**
 * The OpenAPI description of `GET /api/version`, beside its handler.
 * @module
 */
import { jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";
import { versionDocument, versionDocumentSchema } from "../../lib/version/changelog.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Service",
    summary: "The running release",
    description: "A static document: it answers even when the store is down. Not rate limited.",
    responses: {
      200: jsonResponseSpec("The running release and its changes", {
        schema: versionDocumentSchema,
        example: versionDocument(),
      }),
    },
    store: false,
  },
};
