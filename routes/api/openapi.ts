/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document of the whole service.
 * @module
 */
import { Hono } from "hono";
import { type ApiCatalogue } from "../_openapi/mod.ts";
import { apiDocument } from "../_lib/api_document.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
export { spec } from "./openapi_spec.ts";

/** The route: the document, built on first use. */
export function makeRoute(deps: AppDeps, catalogue: ApiCatalogue): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", (c) =>
    c.json(apiDocument(catalogue, deps.config), 200, {
      "Cache-Control": "public, max-age=300",
    }));
}
