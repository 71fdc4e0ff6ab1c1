/**
 * `POST /api/bulk`: makes up to ten links; partial success is a normal outcome.
 * @module
 */
import { Hono } from "hono";
import {
  bulkInput,
  type BulkOutcome,
  bulkRow,
  createLinks,
  toLinkView,
} from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { formLines, isFormPost, readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { bulkFormErrorPage, toBulkOutcome } from "../_lib/post_redirect_get.tsx";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { formErrorPage } from "../_middleware/form_errors.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
import { z } from "zod";
import { ReservedSlugError } from "../../lib/errors.ts";
import { documentAs, errorResponse, jsonResponse, type RouteSpec } from "../_openapi/mod.ts";
import { EXAMPLE_LINK } from "../_lib/examples.ts";
import { bulkEntry } from "../../lib/links/mod.ts";

/** What the route takes and answers, for the API document. */
// Rows are taken as they come and parsed one by one; the document shows what each must be.
documentAs(bulkInput.shape.urls.element, bulkRow);

export const spec: RouteSpec = {
  post: {
    tag: "Links",
    summary: "Make up to ten links",
    description: "Each row is made as `POST /api/create` would make it, on its own: a failed " +
      "row undoes nothing and the answer is 200 whatever the rows did, one entry per row in " +
      "order. `pass` protects every link made. A custom slug repeated in one request fails on " +
      "its later rows. More than ten rows is refused whole. A browser's form post (a form " +
      "body and `Accept: text/html`) answers 303 to `/?bulk=<id>`, the start page with each row's outcome for the browser " +
      "that sent it (a cookie, `lapse_bulk`, says so for an hour); one that is refused gets the " +
      "start page again, with the reason, under the status below.",
    body: {
      schema: bulkInput,
      example: { urls: ["example.com/a/long/path", { url: "example.com/two", slug: "docs" }] },
    },
    responses: {
      200: jsonResponse("One entry per row, in order", {
        schema: z.array(bulkEntry),
        example: [
          { ok: true, link: EXAMPLE_LINK },
          {
            ok: false,
            url: "example.com/two",
            error: new ReservedSlugError("docs").message,
          },
        ],
      }),
      303: {
        description: "Sent by a browser's plain HTML form: on to the start page with each " +
          "row's outcome",
        headers: {
          Location: { description: "The outcome's page", example: "/?bulk=Qm9vayBvZiBsaW5rcw" },
          "Set-Cookie": { description: "`lapse_bulk`: this browser sent the post, for an hour" },
        },
      },
      400: errorResponse("Bad JSON, no rows, or more than ten", "max 10 links per request"),
    },
    rateLimit: RATE_LIMITS.bulk,
  },
};

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
      const outcomes = await createLinks(store, input, { serviceHost: config.serviceHost });
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
