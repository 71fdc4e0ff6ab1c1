/**
 * The app's OpenAPI document, built once per catalogue on first use and shared by
 * `/api/openapi.json` and `/docs`.
 * @module
 */
import type { Config } from "../../fresh.config.ts";
import { type ApiCatalogue, buildOpenApiDocument, type OpenApiDocument } from "../_openapi/mod.ts";
import { CURRENT_RELEASE } from "../../lib/version/changelog.ts";

/** What each tag of the document groups. */
export const API_TAGS: Readonly<Record<string, string>> = {
  Links: "Making, reading, listing and removing links",
  "Protected links": "Links guarded by a password",
  Redirect: "Following a short link",
  Preview: "What a page says about itself",
  Stats: "Service-wide figures",
  Service: "Release information",
  Operations: "Health, metrics and this document",
  Maintenance: "The sweep of expired links; not public API",
};

const built = new WeakMap<ApiCatalogue, OpenApiDocument>();

/** The OpenAPI document of `catalogue`, served from `config.baseUrl`. */
export function apiDocument(catalogue: ApiCatalogue, config: Config): OpenApiDocument {
  let document = built.get(catalogue);
  if (!document) {
    document = buildOpenApiDocument(catalogue, {
      baseUrl: config.baseUrl,
      version: CURRENT_RELEASE.version,
      tags: API_TAGS,
    });
    built.set(catalogue, document);
  }
  return document;
}
