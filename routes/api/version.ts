/**
 * `GET /api/version`: the running release; answers without the store.
 * @module
 */
import { Hono } from "hono";
import { versionDocument } from "../../lib/version/changelog.ts";
import type { AppEnv } from "../_lib/env.ts";
export { spec } from "./version_spec.ts";

/** The route: the version document. */
export function makeRoute(): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", (c) => c.json(versionDocument()));
}
