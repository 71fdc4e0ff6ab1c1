/**
 * The stats as `/api/stats` answers them, as a zod schema for the OpenAPI document. The shape
 * itself is declared in `types.ts`; the compiler holds the two to the same fields.
 * @module
 */
import { z } from "zod";
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
    date: z.string().describe("`YYYY-MM-DD`, UTC"),
    links: count.describe("Live links made that day"),
    clicks: count.describe("Clicks that day on live links"),
  })).describe("The last seven UTC days, oldest first"),
  top: z.array(z.object({
    slug: z.string(),
    shortUrl: z.string(),
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
