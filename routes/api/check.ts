/**
 * `GET /api/check?slug=`: whether a name could be a custom slug, is reserved, or is taken.
 * @module
 */
import { Hono } from "hono";
import { checkQuery, checkSlug } from "../../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
export { spec } from "./check_spec.ts";

/** The route: `{slug, exists, reserved, valid}`; an expired slug does not exist. */
export function makeRoute({ store }: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", async (c) => {
    const { slug } = parseQuery(c, checkQuery);
    return c.json(await checkSlug(store, slug));
  });
}
