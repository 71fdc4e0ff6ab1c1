/**
 * The shapes the API answers about links, as zod schemas: the OpenAPI document is made from
 * them, and the TypeScript types of the views are inferred from them.
 * @module
 */
import { z } from "zod";
import { MAX_VISITS_LIMIT } from "./input.ts";

const slug = z.string().describe("The short name");
const shortUrl = z.url().describe("The full short URL: the service's origin and the slug");
const destination = z.url().nullable().describe(
  "The destination; `null` for a protected link unless the request carries its unlock cookie, " +
    "and for a limited link (`maxVisits`) always: only opening it shows where it goes",
);
const isProtected = z.boolean().describe("Whether a password guards the redirect");
const expiresInDays = z.number().int().min(0).describe(
  "Whole days left, rounded up; a new link says 7",
);
const expiresAt = z.iso.datetime().describe("The deadline, ISO 8601 UTC");
const clicks = z.number().int().min(0).describe(
  "Clicks by people (bots are not counted); lags a visit by at most 2 seconds",
);
const createdAt = z.iso.datetime().describe("When the link was made, ISO 8601 UTC");
const maxVisits = z.number().int().min(1).max(MAX_VISITS_LIMIT).nullable().describe(
  "Most opens, each a `POST /<slug>` (no GET or HEAD counts); `null` when unlimited",
);
const visitsLeft = z.number().int().min(0).max(MAX_VISITS_LIMIT).nullable().describe(
  "Opens left; the last one retires the link. `null` when unlimited",
);

/** The link as create and bulk answer it. */
export const linkView = z.object({
  slug,
  shortUrl,
  url: destination,
  title: z.string().describe('The title; `""` when none'),
  protected: isProtected,
  expiresInDays,
  expiresAt,
  maxVisits,
  visitsLeft,
});

/** A value of {@linkcode linkView}. */
export type LinkView = z.infer<typeof linkView>;

/** The link as the list and the JSON export show it. */
export const linkListEntry = z.object({
  slug,
  shortUrl,
  url: destination,
  host: z.string().nullable().describe("The destination's host; `null` when `url` is withheld"),
  title: z.string().describe('The title; `""` when none'),
  note: z.string().describe('The note; `""` when none'),
  clicks,
  protected: isProtected,
  createdAt,
  lastUsedAt: z.iso.datetime().nullable().describe(
    "The last click, ISO 8601 UTC; `null` before it. Lags a visit by at most `STATS_LAG_SECONDS`",
  ),
  expiresAt,
  expiresInDays,
  maxVisits,
  visitsLeft,
});

/** A value of {@linkcode linkListEntry}. */
export type LinkListEntry = z.infer<typeof linkListEntry>;

/** The link as unshorten answers it. */
export const unshortenView = z.object({
  slug,
  shortUrl,
  url: destination,
  protected: isProtected,
  clicks,
  createdAt,
  expiresAt,
  expiresInDays,
  maxVisits,
  visitsLeft,
});

/** A value of {@linkcode unshortenView}. */
export type UnshortenView = z.infer<typeof unshortenView>;

/** What `GET /api/check` answers. */
export const checkResult = z.object({
  slug: z.string().describe("The slug asked about, trimmed"),
  exists: z.boolean().describe("Whether a live link has it; an expired link does not count"),
  reserved: z.boolean().describe("Whether it is a reserved word, which no link may take"),
  valid: z.boolean().describe(
    "Whether it could be claimed as a custom slug at all: 3 to 48 of `A-Z a-z 0-9 - _`, " +
      "starting with a letter or digit, and not reserved. It is free to claim when `valid` " +
      "and not `exists`",
  ),
});

/** What `GET /api/check` answers. */
export type CheckResult = z.infer<typeof checkResult>;

/** The answer to an action on one link that succeeded: remove, single-link sweep, unlock. */
export const linkActionDone = z.object({
  ok: z.literal(true),
  slug: z.string().describe("The link's slug"),
});

/** The answer to an action on one link that succeeded. */
export type LinkActionDone = z.infer<typeof linkActionDone>;

/** One row's entry in the bulk answer: the new link, or the input and why it failed. */
export const bulkEntry = z.union([
  z.object({ ok: z.literal(true), link: linkView }),
  z.object({
    ok: z.literal(false),
    url: z.unknown().describe("The row as it was sent"),
    error: z.string().describe("Why this row made no link"),
  }),
]);

/** One row's entry in the bulk answer. */
export type BulkEntry = z.infer<typeof bulkEntry>;

/** One link the sweep would remove. */
export const expiredLink = z.object({ slug, expiresAt });

/** What the sweep would remove: `GET` and `DELETE /api/sweep` without a slug. */
export const expiredListing = z.object({
  expired: z.array(expiredLink).describe("The first 1,000 expired links, oldest deadline first"),
  count: z.number().int().min(0).describe("How many expired links there are in all"),
});

/** What `GET /api/sweep` answers: the listing, and how many legacy links it dated. */
export const sweepListing = expiredListing.extend({
  stamped: z.number().int().min(0).describe("Legacy links given a deadline by this request"),
});

/** What a sweep did. */
export const sweepReport = z.object({
  swept: z.number().int().min(0).describe("How many links it removed"),
  slugs: z.array(z.string()).describe("Their slugs, the first 1,000 of them"),
});
