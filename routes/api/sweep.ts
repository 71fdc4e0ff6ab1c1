/**
 * `/api/sweep`: maintenance. GET lists what the sweep would remove (and dates legacy links; HEAD
 * does not), DELETE lists it too or removes one link with `?slug=`, POST `{"confirm":"sweep"}`
 * runs it.
 * @module
 */
import { Hono } from "hono";
import {
  type LinkActionDone,
  listExpiredLinks,
  optionalSlugQuery,
  runSweep,
  stampUndatedLinks,
  type SweepReport,
} from "../../lib/links/mod.ts";
import { countSweeps } from "../../lib/metrics/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { readObjectBody, refuseMarkedBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { removeLinkOf } from "../_lib/remove.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
import { sweepRunInput } from "../../lib/links/input.ts";
export { spec } from "./sweep_spec.ts";

/** The route: the three methods share one rate allowance. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { store } = deps;
  const limit = rateLimit(deps, RATE_LIMITS.sweep);
  return new Hono<AppEnv>()
    .get("/", limit, async (c) => {
      // HEAD answers as GET would, and changes nothing.
      const stamped = c.req.method === "HEAD" ? 0 : await stampUndatedLinks(store);
      return c.json({ ...(await listExpiredLinks(store)), stamped });
    })
    .delete("/", limit, async (c) => {
      refuseMarkedBody(c);
      const { slug } = parseQuery(c, optionalSlugQuery);
      if (slug === undefined) return c.json(await listExpiredLinks(store));
      await removeLinkOf(deps, slug);
      return c.json({ ok: true, slug } satisfies LinkActionDone);
    })
    .post("/", limit, async (c) => {
      parseInput(sweepRunInput, await readObjectBody(c, { forms: false }));
      const { swept, slugs } = await runSweep(store, {
        onSwept: countSweeps(deps.metrics),
        cache: deps.linkCache,
      });
      return c.json({ swept, slugs } satisfies SweepReport);
    });
}
