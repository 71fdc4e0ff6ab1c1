/**
 * `DELETE /api/remove?slug=`: removes a link at once; no password needed.
 * @module
 */
import { Hono } from "hono";
import { removeLink } from "../../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { slugParam } from "../_lib/params.ts";

/** The route: 200 `{ok: true, slug}`, or 404 for an unknown or expired slug. */
export function makeRoute({ store }: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().delete("/", async (c) => {
    const slug = slugParam(c);
    await removeLink(store, slug);
    return c.json({ ok: true, slug });
  });
}
