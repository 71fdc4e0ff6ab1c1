/**
 * `DELETE /api/remove?slug=`: removes a link at once; no password needed.
 * @module
 */
import { Hono } from "hono";
import { type LinkActionDone, slugQuery } from "../../lib/links/mod.ts";
import { refuseMarkedBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { removeLinkOf } from "../_lib/remove.ts";
export { spec } from "./remove_spec.ts";

/** The route: 200 `{ok: true, slug}`, or 404 for an unknown or expired slug. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().delete("/", async (c) => {
    refuseMarkedBody(c);
    const { slug } = parseQuery(c, slugQuery);
    await removeLinkOf(deps, slug);
    return c.json({ ok: true, slug } satisfies LinkActionDone);
  });
}
