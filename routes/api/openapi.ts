/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document of the whole service.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { type ApiCatalogue, jsonResponse, type RouteSpec } from "../_openapi/mod.ts";
import { apiDocument } from "../_lib/api_document.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Operations",
    summary: "This document",
    description: "The OpenAPI 3.1 document of every endpoint, generated from the schemas the " +
      "routes validate with. `/docs` renders it for a person. Not rate limited.",
    responses: {
      200: jsonResponse("The OpenAPI document", {
        schema: z.looseObject({ openapi: z.string() }),
        example: { openapi: "3.1.0", info: { title: "lapse", version: "1.1.0" } },
      }),
    },
    store: false,
  },
};

/** The route: the document, built on first use. */
export function makeRoute(deps: AppDeps, catalogue: ApiCatalogue): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", (c) =>
    c.json(apiDocument(catalogue, deps.config), 200, {
      "Cache-Control": "public, max-age=300",
    }));
}
