/**
 * Reading a reference to a link: a bare slug, or a full short URL of this service.
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import { isSlugLike } from "./slug.ts";

/**
 * The slug `value` names: `value` itself when it is a slug, else the single path segment of a
 * URL whose host is the service host or its `www.` variant (the scheme may be left out).
 * Anything else throws `InvalidInputError("invalid slug")`.
 */
export function slugFromReference(value: string, serviceHost: string): string {
  const trimmed = value.trim();
  if (isSlugLike(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    throw new InvalidInputError("invalid slug");
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host !== serviceHost && host !== `www.${serviceHost}`) {
    throw new InvalidInputError("invalid slug");
  }
  const slug = decodeSegment(url.pathname.slice(1));
  if (slug === null || !isSlugLike(slug)) throw new InvalidInputError("invalid slug");
  return slug;
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
