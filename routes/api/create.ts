/**
 * `POST /api/create`: makes one link.
 * @module
 */
import { Hono } from "hono";
import { createLink, createLinkInput, toLinkView } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { createFormErrorPage, renderHome } from "../_lib/home.tsx";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { formErrorPage } from "../_middleware/form_errors.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/**
 * The route: 201 with the new link. A browser's plain form post gets the start page with the
 * new link's card (201), or, refused, the form again with the reason (the API's status).
 */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().post(
    "/",
    formErrorPage(createFormErrorPage),
    rateLimit(deps, RATE_LIMITS.create),
    async (c) => {
      const input = parseInput(createLinkInput, await readObjectBody(c));
      const record = await createLink(store, input, { serviceHost: config.serviceHost });
      const view = toLinkView(record, { baseUrl: config.baseUrl, now: store.now() });
      const headers = { Location: view.shortUrl };
      if (isBrowserForm(c)) {
        return renderHome({ create: { created: view } }, 201, {
          ...headers,
          "Cache-Control": "no-store",
        });
      }
      return c.json(view, 201, headers);
    },
  );
}
