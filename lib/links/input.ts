/**
 * The shapes a client sends to make links; one schema for create and for each bulk row.
 * @module
 */
import { z } from "zod";
import { CUSTOM_SLUG_PATTERN, SLUG_LIKE_PATTERN } from "./slug.ts";
import {
  MAX_DESTINATION_LENGTH,
  MAX_NOTE_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_SLUG_LENGTH,
  MAX_TITLE_LENGTH,
  MAX_VISITS_LIMIT,
  MIN_SLUG_LENGTH,
} from "./limits.ts";

export { MAX_NOTE_LENGTH, MAX_PASSWORD_LENGTH, MAX_TITLE_LENGTH, MAX_VISITS_LIMIT };

// Plain HTML forms send empty strings for fields left blank, and JSON clients often send null:
// both mean "not given" for the optional fields.
const blankIsAbsent = (value: unknown) => (value === "" || value === null ? undefined : value);

/**
 * Text kept or compared as a client sent it (a title, a note, a password): a string without
 * unpaired surrogates. One has no UTF-8 form, so it would be stored, hashed and answered as
 * U+FFFD, which any other would match: two different passwords would unlock the same link.
 */
function text(field: string) {
  return z.string().refine(
    (value) => value.isWellFormed(),
    `${field} must be well-formed Unicode text (no unpaired surrogates)`,
  );
}

/** A custom slug as a client may send it, trimmed as every other slug a client sends. */
export const customSlugInput = z.string().trim().regex(
  CUSTOM_SLUG_PATTERN,
  `slug must be ${MIN_SLUG_LENGTH} to ${MAX_SLUG_LENGTH} letters, digits, '-' or '_', starting with a letter or digit`,
);

/** The slug of an existing link, which may be a short legacy one. */
export const existingSlug = z.string().trim().regex(SLUG_LIKE_PATTERN, "invalid slug");

/** A password as a client may send it. */
export const password = text("pass").max(MAX_PASSWORD_LENGTH);

const VISIT_LIMIT_RULE = "maxVisits must be a whole number from 1 to 10,000";

/** A visit limit as a client may send it: a JSON number, never a string. */
export const visitLimit = z.number({ error: VISIT_LIMIT_RULE })
  .int(VISIT_LIMIT_RULE)
  .min(1, VISIT_LIMIT_RULE)
  .max(MAX_VISITS_LIMIT, VISIT_LIMIT_RULE);

const VISIT_LIMIT_DESCRIPTION = "Opens at most this many times, 1 to 10,000, each by " +
  "`POST /<slug>` (the Open button of its page; no GET or HEAD takes a visit); its " +
  "destination is withheld everywhere, and the last visit retires the link. Unlimited when absent";

/**
 * A form's fields with its visit limit read as the number it spells: a form carries only text,
 * where JSON carries a number. Anything but digits stays text, and is refused as such.
 */
export function withFormVisitLimit(fields: Record<string, unknown>): Record<string, unknown> {
  const value = fields.maxVisits;
  if (typeof value !== "string" || !/^\s*\d*\s*$/.test(value)) return fields;
  return { ...fields, maxVisits: value.trim() === "" ? undefined : Number(value) };
}

/** What one link is made from: the body of `POST /api/create` and one bulk row. */
export const linkInput = z.object({
  // `null` is no url given, as for the optional fields: "url is required".
  url: z.preprocess(
    (value) => (value === null ? undefined : value),
    z.string().trim().min(1).max(MAX_DESTINATION_LENGTH),
  ).describe(
    "The destination: an http(s) URL; `https://` is prepended when it has no `scheme://`",
  ),
  title: z.preprocess(blankIsAbsent, text("title").trim().max(MAX_TITLE_LENGTH).optional())
    .describe("A title"),
  note: z.preprocess(blankIsAbsent, text("note").trim().max(MAX_NOTE_LENGTH).optional())
    .describe("A note, shown in the list"),
  // Trimmed first: a slug of spaces alone is no slug given, as an empty one is.
  slug: z.preprocess(
    (value) => blankIsAbsent(typeof value === "string" ? value.trim() : value),
    customSlugInput.optional(),
  ).describe(
    "A custom slug: 3 to 48 of `A-Z a-z 0-9 - _`, starting with a letter or digit; " +
      "case-sensitive, and not a reserved word in any case. Random when absent",
  ),
  // `null` is no limit given, as for the other optional fields; a string is refused, not read.
  maxVisits: z.preprocess((value) => (value === null ? undefined : value), visitLimit.optional())
    .describe(`${VISIT_LIMIT_DESCRIPTION} (or \`null\`)`),
});

/**
 * One bulk row's fields: as {@linkcode linkInput}, but a `null` limit is refused there, since a
 * row that names the field means to set it.
 */
export const bulkLinkInput = linkInput.extend({
  maxVisits: visitLimit.optional().describe(VISIT_LIMIT_DESCRIPTION),
});

/** One link's input, after parsing. */
export type LinkInput = z.infer<typeof linkInput>;

/** The body of `POST /api/create`: one link, optionally protected by a password. */
export const createLinkInput = linkInput.extend({
  pass: z.preprocess(blankIsAbsent, password.optional()).describe(
    "A password guarding the redirect; the link is open without it",
  ),
});

/** The body of `POST /api/create`, after parsing. */
export type CreateLinkInput = z.infer<typeof createLinkInput>;

/** The body of `POST /api/unlock`. */
export const unlockInput = z.object({
  slug: existingSlug,
  pass: password.min(1),
});

/** The body of `POST /api/sweep` that runs the sweep. */
export const sweepRunInput = z.object({
  confirm: z.literal("sweep", { error: 'confirm must be "sweep" to run the sweep' })
    .describe("Must be `sweep`: a safeguard against running it by mistake, not a credential"),
});
