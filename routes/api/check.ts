/**
 * `GET /api/check?slug=`: whether a slug is taken by a live link, and whether it is reserved.
 * @module
 */
import { Hono } from "hono";
import {
  type CheckResult,
  checkResult,
  getLiveLink,
  isReservedSlug,
  slugQuery,
} from "../../lib/links/mod.ts";
import { errorResponse, jsonResponse, type RouteSpec } from "../../lib/openapi/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "Whether a slug is taken or reserved",
    description: "An expired link's slug is free: `exists` is false and it may be claimed. " +
      "The reserved check ignores case. Not rate limited.",
    query: slugQuery,
    parameterExample: { slug: "hello" },
    responses: {
      200: jsonResponse("What the store knows of the slug", {
        schema: checkResult,
        example: { slug: "hello", exists: true, reserved: false },
      }),
      400: errorResponse("No slug, or one no link could have", "slug is required"),
    },
  },
};

/** The route: `{slug, exists, reserved}`; an expired slug does not exist. */
export function makeRoute({ store }: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", async (c) => {
    const { slug } = parseQuery(c, slugQuery);
    const reserved = isReservedSlug(slug);
    const exists = !reserved && (await getLiveLink(store, slug)) !== null;
    return c.json({ slug, exists, reserved } satisfies CheckResult);
  });
}
