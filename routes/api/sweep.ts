/**
 * `/api/sweep`: maintenance. GET lists what the sweep would remove (and dates legacy links),
 * DELETE lists it too or removes one link with `?slug=`, POST `{"confirm":"sweep"}` runs it.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  listExpiredLinks,
  removeLink,
  stampUndatedLinks,
  sweepExpiredLinks,
} from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { slugParam } from "../_lib/params.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** The body that runs the sweep. */
export const sweepRunInput = z.object({
  confirm: z.literal("sweep", { error: 'confirm must be "sweep" to run the sweep' }),
});

/** The route: the three methods share one rate allowance. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { store } = deps;
  const limit = rateLimit(deps, RATE_LIMITS.sweep);
  return new Hono<AppEnv>()
    .get("/", limit, async (c) => {
      const stamped = await stampUndatedLinks(store);
      return c.json({ ...(await listExpiredLinks(store)), stamped });
    })
    .delete("/", limit, async (c) => {
      if (c.req.query("slug") === undefined) return c.json(await listExpiredLinks(store));
      const slug = slugParam(c);
      await removeLink(store, slug);
      return c.json({ ok: true, slug });
    })
    .post("/", limit, async (c) => {
      parseInput(sweepRunInput, await readObjectBody(c));
      return c.json(await sweepExpiredLinks(store));
    });
}
