/**
 * `POST /api/bulk`: makes up to ten links; partial success is a normal outcome.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { ReservedSlugError } from "../../lib/errors.ts";
import { bulkEntry, bulkInput, createLinks, toLinkView } from "../../lib/links/mod.ts";
import { errorResponse, jsonResponse, type RouteSpec } from "../../lib/openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { EXAMPLE_LINK } from "../_lib/examples.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

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

/** The route: 200 with one `{ok, link}` or `{ok, url, error}` per row, in order. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().post("/", rateLimit(deps, RATE_LIMITS.bulk), async (c) => {
    const input = parseInput(bulkInput, await readObjectBody(c));
    const outcomes = await createLinks(store, input, { serviceHost: config.serviceHost });
    const now = store.now();
    return c.json(
      outcomes.map((outcome) =>
        outcome.ok
          ? { ok: true, link: toLinkView(outcome.record, { baseUrl: config.baseUrl, now }) }
          : outcome
      ),
    );
  });
}
