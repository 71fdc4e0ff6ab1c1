/**
 * The stats as `/api/stats` answers them, as a zod schema for the OpenAPI document. The shape
 * itself is declared in `types.ts`; the compiler holds the two to the same fields.
 * @module
 */
import { z } from "zod";
import type { LinkStatsView } from "./link.ts";
import type { Stats } from "./types.ts";

const count = z.number().int().min(0);

/** One name of a breakdown and its count. */
export const statsCount = z.object({
  name: z.string(),
  clicks: count,
});

/** Service-wide figures over live links only. */
export const stats = z.object({
  links: count.describe("Live links"),
  clicks: count.describe("Clicks by people on live links"),
  days: z.array(z.object({
    date: z.iso.date().describe("`YYYY-MM-DD`, UTC"),
    links: count.describe("Live links made that day"),
    clicks: count.describe("Clicks that day on live links"),
  })).describe("The last seven UTC days, oldest first"),
  top: z.array(z.object({
    slug: z.string(),
    shortUrl: z.url(),
    title: z.string(),
    clicks: count,
  })).describe("At most ten links, most clicked first"),
  referrers: z.array(statsCount).describe("Referring hosts, or `direct`, most first"),
  devices: z.array(statsCount).describe(
    "`desktop`, `mobile`, `tablet`, `bot`, `other`, most first; bots count only here",
  ),
  countries: z.array(statsCount).describe("ISO 3166 alpha-2 codes, or `unknown`, most first"),
});

// Fails to compile when the schema and the declared shape part ways, in either direction.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<z.infer<typeof stats>, Stats> = true;
void sameShape;

/** One live link's figures, as `GET /api/stats?slug=` answers them. Never its destination. */
export const linkStats = z.object({
  slug: z.string().describe("The short name"),
  shortUrl: z.url().describe("The full short URL: the service's origin and the slug"),
  clicks: count.describe("Clicks by people (bots are not counted)"),
  lastUsedAt: z.iso.datetime().nullable().describe(
    "The last click, ISO 8601 UTC; `null` before it",
  ),
  createdAt: z.iso.datetime().describe("When the link was made, ISO 8601 UTC"),
  expiresAt: z.iso.datetime().describe("The deadline, ISO 8601 UTC"),
  expiresInDays: count.describe("Whole days left, rounded up; a new link says 7"),
  days: z.array(z.object({
    date: z.iso.date().describe("`YYYY-MM-DD`, UTC"),
    clicks: count.describe("Clicks by people that day"),
  })).describe("The last seven UTC days, oldest first"),
  referrers: z.array(statsCount).describe(
    "Referring hosts, or `direct` (`other` past the 100 hosts a link keeps), most first; at " +
      "most 20",
  ),
  devices: z.array(statsCount).describe(
    "`desktop`, `mobile`, `tablet`, `bot`, `other`, most first; bots count only here",
  ),
  countries: z.array(statsCount).describe(
    "ISO 3166 alpha-2 codes, or `unknown`, most first; at most 20",
  ),
});

const sameLinkShape: Same<z.infer<typeof linkStats>, LinkStatsView> = true;
void sameLinkShape;
