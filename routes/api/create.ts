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
import { ReservedSlugError, SlugTakenError } from "../../lib/errors.ts";
import { errorResponse, jsonResponse, type RouteSpec } from "../../lib/openapi/mod.ts";
import { EXAMPLE_LINK } from "../_lib/examples.ts";
import { linkView } from "../../lib/links/mod.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  post: {
    tag: "Links",
    summary: "Make a link",
    description: "Makes a link that lives seven days. A `url` without `scheme://` gets " +
      "`https://`; only http(s) URLs with a real host, not this service's, are taken. Without " +
      "`slug`, seven random base62 characters are drawn. With `pass`, the link is protected: " +
      "its redirect needs the unlock cookie, and its destination is withheld elsewhere. Empty " +
      "or `null` optional fields count as absent; unknown fields are ignored.",
    body: {
      schema: createLinkInput,
      example: { url: "example.com/a/long/path", slug: "hello", title: "A long path" },
      form: true,
    },
    responses: {
      201: jsonResponse("The new link", {
        schema: linkView,
        example: EXAMPLE_LINK,
        headers: { Location: { description: "The short URL", example: EXAMPLE_LINK.shortUrl } },
      }),
      400: errorResponse(
        "Bad JSON, a missing or invalid field, or a reserved slug",
        new ReservedSlugError("docs").message,
      ),
      409: errorResponse(
        "The custom slug is held by a live link",
        new SlugTakenError("hello").message,
      ),
    },
    rateLimit: RATE_LIMITS.create,
  },
};

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
