/**
 * The specs of routes whose modules do not carry their own: the redirect, whose module stays
 * about the hot path, and `/api/stats`, until its module exports a `spec` (which then wins).
 * Every other route exports its `spec` beside its handler.
 * @module
 */
import { z } from "zod";
import { SLUG_LIKE_PATTERN } from "../../lib/links/mod.ts";
import { jsonResponse, type RouteSpec } from "../../lib/openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { stats } from "../../lib/stats/schema.ts";
import { EXAMPLE_ORIGIN } from "./examples.ts";

const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string(), example: '<!DOCTYPE html><html lang="en">…' } },
});

/** `GET /<slug>`: the redirect. */
export const REDIRECT_SPEC: RouteSpec = {
  get: {
    tag: "Redirect",
    summary: "Follow a short link",
    description: "Redirects to the destination. A protected link needs its unlock cookie; " +
      "without it the answer is 401 with the unlock page. An expired or unknown slug gets " +
      "the 404 page, which says where an expired link pointed (a protected one: only that it " +
      "was protected) or that the name is free. HEAD answers the same status and headers " +
      "without a body, and records no click. Not rate limited.",
    path: z.object({ slug: z.string().regex(SLUG_LIKE_PATTERN).describe("The link's slug") }),
    parameterExample: { slug: "hello" },
    responses: {
      302: {
        description: "On to the destination",
        headers: {
          Location: { description: "The destination", example: "https://example.com/a/long/path" },
          "Referrer-Policy": {
            description: "`unsafe-url`: the referrer travels on",
            example: "unsafe-url",
          },
          "Cache-Control": {
            description: "`no-store`: no cache absorbs a visit",
            example: "no-store",
          },
        },
      },
      401: page("A protected link without its unlock cookie: the unlock page"),
      404: page("No live link has the slug: the 404 page"),
      503: page("The store did not answer: an error page"),
    },
    store: false,
    readsUnlockCookie: true,
  },
};

/** `GET /api/stats`: service-wide figures over live links. */
export const STATS_SPEC: RouteSpec = {
  get: {
    tag: "Stats",
    summary: "Service-wide figures",
    description: "Figures over live links only: a removed or expired link's share leaves every " +
      "figure. Bots and link-preview crawlers count only under the device `bot`. Click " +
      "figures may lag a visit by at most 2 seconds.",
    responses: {
      200: jsonResponse("The figures", {
        schema: stats,
        example: {
          links: 2,
          clicks: 12,
          days: [
            { date: "2026-10-27", links: 0, clicks: 0 },
            { date: "2026-10-28", links: 0, clicks: 0 },
            { date: "2026-10-29", links: 0, clicks: 0 },
            { date: "2026-10-30", links: 0, clicks: 0 },
            { date: "2026-10-31", links: 0, clicks: 0 },
            { date: "2026-11-01", links: 0, clicks: 0 },
            { date: "2026-11-02", links: 2, clicks: 12 },
          ],
          top: [{ slug: "hello", shortUrl: `${EXAMPLE_ORIGIN}/hello`, title: "", clicks: 12 }],
          referrers: [{ name: "direct", clicks: 9 }, { name: "news.example", clicks: 3 }],
          devices: [{ name: "mobile", clicks: 8 }, { name: "desktop", clicks: 4 }],
          countries: [{ name: "DE", clicks: 7 }, { name: "unknown", clicks: 5 }],
        },
      }),
    },
    rateLimit: RATE_LIMITS.stats,
  },
};
