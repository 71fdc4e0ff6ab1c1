/**
 * `GET /docs`: the API reference, rendered on the server from the OpenAPI document.
 * @module
 */
import { Hono } from "hono";
import { ApiDocsPage } from "../components/ApiDocsPage.tsx";
import type { ApiCatalogue } from "./_openapi/mod.ts";
import { apiDocument } from "./_lib/api_document.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";

/** Where the document the page renders is served. */
export const DOCUMENT_PATH = "/api/openapi.json";

/** The route: the page, made from the same document `/api/openapi.json` serves. */
export function makeRoute(deps: AppDeps, catalogue: ApiCatalogue): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", () =>
    renderPage(
      <ApiDocsPage document={apiDocument(catalogue, deps.config)} documentPath={DOCUMENT_PATH} />,
    ));
}
