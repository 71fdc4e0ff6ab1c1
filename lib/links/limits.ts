/**
 * The bounds of a link's fields. It imports nothing, so the islands' forms take the same
 * numbers as the schemas that check them.
 * @module
 */

/** Longest destination, in characters once percent-encoded. */
export const MAX_DESTINATION_LENGTH = 4096;
/** Shortest custom slug, in characters. */
export const MIN_SLUG_LENGTH = 3;
/** Longest custom slug, in characters. */
export const MAX_SLUG_LENGTH = 48;
/** Longest title, in characters. */
export const MAX_TITLE_LENGTH = 200;
/** Longest note, in characters. */
export const MAX_NOTE_LENGTH = 500;
/** Longest password, in characters. */
export const MAX_PASSWORD_LENGTH = 128;
/** Highest visit limit a link may have. */
export const MAX_VISITS_LIMIT = 10_000;
