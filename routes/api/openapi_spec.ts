/**
 * The OpenAPI description of `GET /api/openapi.json`, beside its handler.
 * @module
 */
import { z } from "zod";
import { jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Operations",
    summary: "This document",
    description: "The OpenAPI 3.1 document of every endpoint, generated from the schemas the " +
      "routes validate with. `/docs` renders it for a person. Not rate limited.",
    responses: {
      200: jsonResponseSpec("The OpenAPI document", {
        schema: z.looseObject({ openapi: z.string() }),
        example: { openapi: "3.1.0", info: { title: "lapse", version: "1.1.0" } },
      }),
    },
    store: false,
  },
};
