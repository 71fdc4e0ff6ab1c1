/**
 * Reading a reference to a link: a bare slug, or a full short URL of this service.
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import { isSlugLike } from "./slug.ts";

/** Options of {@linkcode slugFromReference}. */
export interface ReferenceOptions {
  /**
   * The port the service's short URLs carry, `"80"` or `"443"` for the scheme's default. When
   * given, a URL that names another port is not the service's; one that names none (or its
   * scheme's default) is.
   */
  port?: string;
}

/**
 * The slug `value` names: `value` itself when it is a slug, else the single path segment (a
 * slash after it allowed) of an http(s) URL whose host is the service host or its `www.` variant,
 * naming no port or the service's (the scheme may be left out). Anything else throws
 * `InvalidInputError("invalid slug")`.
 */
export function slugFromReference(
  value: string,
  serviceHost: string,
  options: ReferenceOptions = {},
): string {
  const trimmed = value.trim();
  if (isSlugLike(trimmed)) return trimmed;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    throw new InvalidInputError("invalid slug");
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const web = url.protocol === "http:" || url.protocol === "https:";
  // `URL` spells no port for its scheme's default: such a reference is taken as naming none.
  const onPort = options.port === undefined || url.port === "" || url.port === options.port;
  if (!web || !onPort || (host !== serviceHost && host !== `www.${serviceHost}`)) {
    throw new InvalidInputError("invalid slug");
  }
  // A short URL pasted with a slash after it names the link, as the redirect takes it.
  const slug = decodeSegment(url.pathname.slice(1).replace(/\/$/, ""));
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
