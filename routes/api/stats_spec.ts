/**
 * The OpenAPI description of `GET /api/stats`, beside its handler.
 * @module
 */
import { z } from "zod";
import { statsQuery } from "../../lib/links/query.ts";
import {
  errorResponseSpec,
  jsonResponseSpec,
  linkGone,
  NEVER_A_LINK,
  type RouteSpec,
} from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { linkStats, stats } from "../../lib/stats/schema.ts";
import { EXAMPLE_ORIGIN } from "../_lib/examples.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Stats",
    summary: "Service-wide figures, or one link's",
    description: "Without `slug`: figures over live links only; a removed or expired link's " +
      "share leaves every figure. With `slug`: that live link's own figures (`slug, shortUrl, " +
      "clicks, lastUsedAt, createdAt, expiresAt, expiresInDays, days, referrers, devices, " +
      "countries`), shown for a protected link too, since they never hold a destination; an " +
      "expired link answers 410, one that never existed 404. Bots and link-preview crawlers " +
      "count only under the device `bot`. A link's `clicks` (its own, and each top link's) " +
      "lag a visit by at most 2 seconds; every other figure by at most `STATS_LAG_SECONDS` " +
      "(default 60). " +
      "One rate limit for both forms.",
    query: statsQuery,
    parameterExample: { slug: "hello" },
    responses: {
      200: jsonResponseSpec("The service's figures, or with `slug` the link's", {
        schema: z.union([stats, linkStats]),
        example: {
          slug: "hello",
          shortUrl: `${EXAMPLE_ORIGIN}/hello`,
          clicks: 12,
          lastUsedAt: "2026-11-02T18:40:00.000Z",
          createdAt: "2026-11-02T12:00:00.000Z",
          expiresAt: "2026-11-09T12:00:00.000Z",
          expiresInDays: 7,
          days: [
            { date: "2026-10-27", clicks: 0 },
            { date: "2026-10-28", clicks: 0 },
            { date: "2026-10-29", clicks: 0 },
            { date: "2026-10-30", clicks: 0 },
            { date: "2026-10-31", clicks: 0 },
            { date: "2026-11-01", clicks: 0 },
            { date: "2026-11-02", clicks: 12 },
          ],
          referrers: [{ name: "direct", clicks: 9 }, { name: "news.example", clicks: 3 }],
          devices: [{ name: "mobile", clicks: 8 }, { name: "desktop", clicks: 4 }],
          countries: [{ name: "DE", clicks: 7 }, { name: "unknown", clicks: 5 }],
        } satisfies z.input<typeof linkStats>,
      }),
      400: errorResponseSpec("A slug no link could have", "invalid slug"),
      404: NEVER_A_LINK,
      410: linkGone(),
    },
    rateLimit: RATE_LIMITS.stats,
  },
};
