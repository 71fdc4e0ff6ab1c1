/**
 * Slugs: the rules for custom ones, the generator for random ones, and the reserved words.
 * @module
 */
import { MAX_SLUG_LENGTH, MIN_SLUG_LENGTH } from "./limits.ts";

/** A custom slug: 3 to 48 of `A-Z a-z 0-9 - _`, starting with a letter or digit. */
export const CUSTOM_SLUG_PATTERN = new RegExp(
  `^[A-Za-z0-9][A-Za-z0-9_-]{${MIN_SLUG_LENGTH - 1},${MAX_SLUG_LENGTH - 1}}$`,
);

/**
 * Anything the store may hold under a slug: custom and generated slugs, and legacy ones,
 * which may be shorter. Only a path segment like this is looked up.
 */
export const SLUG_LIKE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;

/** Length of a generated slug. */
export const GENERATED_SLUG_LENGTH = 7;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Words that name the service's own pages and paths, so no link shadows them. The reserved
 * check ignores case; `routes/mod.ts` is tested to reserve every top-level route it mounts.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  "about",
  "admin",
  "api",
  "assets",
  "build",
  "changelog",
  "create",
  "docs",
  "export",
  "favicon",
  "health",
  "index",
  "islands",
  "links",
  "login",
  "logout",
  "metrics",
  "new",
  "openapi",
  "preview",
  "qr",
  "robots",
  "settings",
  "sitemap",
  "static",
  "stats",
  "unlock",
]);

/** Whether `slug` is a reserved word, in any case. */
export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUGS.has(slug.toLowerCase());
}

/** Whether `value` could name a link in the store. */
export function isSlugLike(value: string): boolean {
  return SLUG_LIKE_PATTERN.test(value);
}

/**
 * Whether a path's single segment `value` is worth looking up as a link: it could name one,
 * and names nothing of the service's own.
 */
export function mayNameLink(value: string): boolean {
  return isSlugLike(value) && !isReservedSlug(value);
}

/**
 * A new random slug of seven base62 characters, drawn without bias; never a reserved word (a
 * few are seven letters long). `fill` is the source of random bytes.
 */
export function generateSlug(
  fill: (bytes: Uint8Array) => void = (bytes) => crypto.getRandomValues(bytes),
): string {
  for (;;) {
    let slug = "";
    const bytes = new Uint8Array(16);
    while (slug.length < GENERATED_SLUG_LENGTH) {
      fill(bytes);
      for (const byte of bytes) {
        // 248 = 4 * 62: bytes above it would favour the first characters.
        if (byte < 248 && slug.length < GENERATED_SLUG_LENGTH) slug += BASE62[byte % 62];
      }
    }
    if (!isReservedSlug(slug)) return slug;
  }
}
