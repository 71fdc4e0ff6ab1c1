/**
 * `POST /api/bulk`: makes up to ten links; partial success is a normal outcome.
 * @module
 */
import { Hono } from "hono";
import { bulkInput, type BulkOutcome, createLinks, toLinkView } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { formLines, isFormPost, readObjectBody } from "../_lib/body.ts";
import { clientGroup } from "../_lib/client.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { destinationRules } from "../_lib/deps.ts";
import { bulkFormErrorPage, toBulkOutcome } from "../_lib/post_redirect_get.tsx";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { formErrorPage } from "../_middleware/form_errors.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
export { spec } from "./bulk_spec.ts";

/**
 * The route: 200 with one `{ok, link}` or `{ok, url, error}` per row, in order. A form post
 * may send `urls` as text, one destination a line. A browser's plain form post is sent on (303)
 * to the start page with the outcome row by row, or, refused, gets the form again with the reason.
 */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().post(
    "/",
    formErrorPage(bulkFormErrorPage),
    rateLimit(deps, RATE_LIMITS.bulk),
    async (c) => {
      const body = await readObjectBody(c);
      if (isFormPost(c)) body.urls = formLines(body.urls);
      const input = parseInput(bulkInput, body);
      const outcomes = await createLinks(store, input, {
        ...destinationRules(deps),
        client: clientGroup(c, config.trustProxy),
        cache: deps.linkCache,
      });
      // A browser goes on to the outcome's page (post, redirect, get): reloading it, or going
      // back to it, makes no second set of links.
      if (isBrowserForm(c)) {
        return await toBulkOutcome(c, deps, outcomes, input.pass !== undefined);
      }
      const now = store.now();
      return c.json(
        outcomes.map((outcome: BulkOutcome) =>
          outcome.ok
            ? { ok: true, link: toLinkView(outcome.record, { baseUrl: config.baseUrl, now }) }
            : outcome
        ),
      );
    },
  );
}
