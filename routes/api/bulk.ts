/**
 * `POST /api/bulk`: makes up to ten links; partial success is a normal outcome.
 * @module
 */
import { Hono } from "hono";
import { bulkInput, type BulkOutcome, createLinks, toLinkView } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import type { BulkRow } from "../../islands/BulkForm.tsx";
import { formLines, isFormPost, readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { BULK_PASS_FOR_KEPT_LINES, bulkFormErrorPage, renderHome } from "../_lib/home.tsx";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { formErrorPage } from "../_middleware/form_errors.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
import { z } from "zod";
import { ReservedSlugError } from "../../lib/errors.ts";
import { errorResponse, jsonResponse, type RouteSpec } from "../../lib/openapi/mod.ts";
import { EXAMPLE_LINK } from "../_lib/examples.ts";
import { bulkEntry } from "../../lib/links/mod.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  post: {
    tag: "Links",
    summary: "Make up to ten links",
    description: "Each row is made as `POST /api/create` would make it, on its own: a failed " +
      "row undoes nothing and the answer is 200 whatever the rows did, one entry per row in " +
      "order. `pass` protects every link made. A custom slug repeated in one request fails on " +
      "its later rows. More than ten rows is refused whole.",
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
      400: errorResponse("Bad JSON, no rows, or more than ten", "max 10 links per request"),
    },
    rateLimit: RATE_LIMITS.bulk,
  },
};

/**
 * The route: 200 with one `{ok, link}` or `{ok, url, error}` per row, in order. A form post
 * may send `urls` as text, one destination a line. A browser's plain form post gets the start
 * page with the outcome row by row, or, refused, the form again with the reason.
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
      const now = store.now();
      const rows = outcomes.map((outcome: BulkOutcome) =>
        outcome.ok
          ? {
            ok: true as const,
            link: toLinkView(outcome.record, { baseUrl: config.baseUrl, now }),
          }
          : outcome
      );
      if (isBrowserForm(c)) {
        const shown: BulkRow[] = rows.map((row) =>
          row.ok ? row : { ok: false, url: String(row.url ?? ""), error: row.error }
        );
        // The lines that failed stay in the field, to be mended and sent again.
        const urls = shown.flatMap((row) => (row.ok ? [] : [row.url])).join("\n");
        const passHint = input.pass !== undefined && urls !== "" ? BULK_PASS_FOR_KEPT_LINES : null;
        return renderHome({ bulk: { rows: shown, urls, passHint } }, 200, {
          "Cache-Control": "no-store",
        });
      }
      return c.json(rows);
    },
  );
}
