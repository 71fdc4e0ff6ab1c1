/**
 * The query parameters the API reads about links, as zod schemas: the routes parse queries with
 * them, and the OpenAPI document describes the parameters from them.
 * @module
 */
import { z } from "zod";
import { EXPORT_FORMATS } from "./export.ts";
import { SLUG_LIKE_PATTERN } from "./slug.ts";

/** A `slug` query parameter naming a link: trimmed; blank counts as missing. */
export const slugField = z.string()
  .trim()
  .min(1, "slug is required")
  .regex(SLUG_LIKE_PATTERN, "invalid slug")
  .describe("The link's slug");

/** `?slug=`: one link, by its slug. */
export const slugQuery = z.object({ slug: slugField });

/** `?slug=`, after parsing. */
export type SlugQuery = z.infer<typeof slugQuery>;

/**
 * `GET /api/check`: any `slug` at all, trimmed; only a missing one is refused. What it is worth
 * is the answer, not a refusal.
 */
export const checkQuery = z.object({
  slug: z.string({ error: "slug is required" }).trim().describe(
    "The name to ask about; any text (one no link could have answers `valid: false`)",
  ),
});

/** `?slug=` optional: `DELETE /api/sweep` removes that link, or lists without it. */
export const optionalSlugQuery = z.object({
  slug: slugField.optional().describe("The link to remove; without it, the listing"),
});

/** `?slug=` of `GET /api/stats`, optional: one link's figures, or without it the service's. */
export const statsQuery = z.object({
  slug: optionalSlugQuery.shape.slug.describe(
    "One live link's slug: its own figures instead of the service's",
  ),
});

/**
 * `GET /api/unshorten`: a slug or a full short URL of this service, under `slug` (or `url`);
 * parses to that reference. Blank counts as missing.
 */
export const unshortenQuery = z.object({
  slug: z.string().optional().describe(
    "A slug, or a short URL of this service (its host or the www. variant; the scheme may be left out)",
  ),
  url: z.string().optional().describe("Read when `slug` is absent, with the same meaning"),
})
  .refine((query) => Boolean((query.slug ?? query.url)?.trim()), { message: "slug is required" })
  .transform((query) => (query.slug ?? query.url)!);

/** `GET /api/export`: the format, any case; plain text when absent. */
export const exportQuery = z.object({
  format: z.preprocess(
    // A format sent with no value is no format: the default, as a blank optional field is.
    (value) => typeof value === "string" ? value.trim().toLowerCase() || undefined : value,
    z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(", ")}` })
      .default("text"),
  ).describe(
    "`text`: one line per link, `<shortUrl> TAB <url> TAB <expiresAt>`; `csv`: a header row " +
      "and one row per link; `json`: the links list",
  ),
});
