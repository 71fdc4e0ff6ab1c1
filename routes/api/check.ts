/**
 * `GET /api/check?slug=`: whether a slug is taken by a live link, and whether it is reserved.
 * @module
 */
import { Hono } from "hono";
import { getLiveLink, isReservedSlug } from "../../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { slugParam } from "../_lib/params.ts";

/** The route: `{slug, exists, reserved}`; an expired slug does not exist. */
export function makeRoute({ store }: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", async (c) => {
    const slug = slugParam(c);
    const reserved = isReservedSlug(slug);
    const exists = !reserved && (await getLiveLink(store, slug)) !== null;
    return c.json({ slug, exists, reserved });
  });
}
