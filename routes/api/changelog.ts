/**
 * `GET /api/changelog`: every release, newest first; answers without the store.
 * @module
 */
import { Hono } from "hono";
import { jsonResponse, type RouteSpec } from "../_openapi/mod.ts";
import { changelogDocument, changelogDocumentSchema } from "../../lib/version/changelog.ts";
import type { AppEnv } from "../_lib/env.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Service",
    summary: "Every release",
    description: "The version document plus every release, newest first. A static document: " +
      "it answers even when the store is down. Not rate limited.",
    responses: {
      200: jsonResponse("The release history", {
        schema: changelogDocumentSchema,
        example: changelogDocument(),
      }),
    },
    store: false,
  },
};

/** The route: the changelog document. */
export function makeRoute(): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", (c) => c.json(changelogDocument()));
}
