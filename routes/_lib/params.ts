/**
 * Reading query parameters the API shares.
 * @module
 */
import type { Context } from "hono";
import { InvalidInputError } from "../../lib/errors.ts";
import { isSlugLike } from "../../lib/links/mod.ts";

/** The `slug` query parameter, trimmed; 400 when it is missing or cannot be a slug. */
export function slugParam(c: Context): string {
  const slug = c.req.query("slug")?.trim();
  if (!slug) throw new InvalidInputError("slug is required");
  if (!isSlugLike(slug)) throw new InvalidInputError("invalid slug");
  return slug;
}
