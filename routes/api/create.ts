/**
 * `POST /api/create`: makes one link.
 * @module
 */
import { Hono } from "hono";
import {
  createLink,
  createLinkInput,
  toLinkView,
  withFormVisitLimit,
} from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { isFormPost, readObjectBody } from "../_lib/body.ts";
import { clientGroup } from "../_lib/client.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { destinationRules } from "../_lib/deps.ts";
import { createFormErrorPage, toMadeLink } from "../_lib/post_redirect_get.tsx";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { formErrorPage } from "../_middleware/form_errors.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
export { spec } from "./create_spec.ts";

/**
 * The route: 201 with the new link. A browser's plain form post is sent on (303) to the start
 * page with the new link's card, or, refused, gets the form again with the reason (the API's
 * status).
 */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().post(
    "/",
    formErrorPage(createFormErrorPage),
    rateLimit(deps, RATE_LIMITS.create),
    async (c) => {
      const body = await readObjectBody(c);
      const input = parseInput(createLinkInput, isFormPost(c) ? withFormVisitLimit(body) : body);
      const record = await createLink(store, input, {
        ...destinationRules(deps),
        client: clientGroup(c, config.trustProxy),
        cache: deps.linkCache,
      });
      const view = toLinkView(record, { baseUrl: config.baseUrl, now: store.now() });
      // A browser goes on to the new link's card (post, redirect, get): reloading it, or going
      // back to it, makes no second link.
      if (isBrowserForm(c)) return toMadeLink(c, config, view.slug);
      return c.json(view, 201, { Location: view.shortUrl });
    },
  );
}
