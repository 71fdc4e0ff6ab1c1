/**
 * `GET /api/changelog`: every release, newest first; answers without the store.
 * @module
 */
import { Hono } from "hono";
import { changelogDocument } from "../../lib/version/changelog.ts";
import type { AppEnv } from "../_lib/env.ts";
export { spec } from "./changelog_spec.ts";

/** The route: the changelog document. */
export function makeRoute(): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", (c) => c.json(changelogDocument()));
}
