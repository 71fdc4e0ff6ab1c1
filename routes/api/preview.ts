/**
 * `GET /api/preview?url=`: what a page says about itself, fetched without reaching inward.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { errorBody, previewRefusalBody } from "../../lib/error_bodies.ts";
import { jsonResponse, type RouteSpec } from "../_openapi/mod.ts";
import { pagePreview, previewPage, previewQuery } from "../../lib/preview/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Preview",
    summary: "Preview a page",
    description: "Fetches the page (5 s, 512 KiB, at most 5 redirects, each hop checked) and " +
      "answers what its head says. An unreachable page is 200 with empty fields. A name that " +
      "is not a public host or a URL with credentials (`host`), an inner address, literal or " +
      "resolved (`private`), or a port other than 80 and 443 (`port`) is refused with 400 and " +
      "that `reason`. The connection goes to the address checked.",
    query: previewQuery,
    parameterExample: { url: "example.com" },
    responses: {
      200: jsonResponse("What the page says about itself; empty strings where it says nothing", {
        schema: pagePreview,
        example: {
          url: "https://example.com/",
          host: "example.com",
          title: "Example Domain",
          description: "",
          siteName: "",
          image: "",
          canonical: "",
        },
      }),
      400: jsonResponse(
        "No url, an address that is not http(s), or a refused one (with `reason`)",
        {
          schema: z.union([previewRefusalBody, errorBody]),
          example: { error: 'host "printer.local" is not a public host name', reason: "host" },
        },
      ),
    },
    rateLimit: RATE_LIMITS.preview,
  },
};

/** The route: 200 with the preview, 400 with a `reason` when the address is refused. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.preview), async (c) => {
    const { url } = parseQuery(c, previewQuery);
    const preview = await previewPage(url, {
      ...deps.preview,
      serviceHost: deps.config.serviceHost,
      blocked: (hostname) => deps.blocklist.blocks(hostname),
    });
    return c.json(preview);
  });
}
