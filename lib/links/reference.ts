/**
 * Reading a reference to a link: a bare slug, or a full short URL of this service.
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import { isSlugLike } from "./slug.ts";

/** Options of {@linkcode slugFromReference}. */
export interface ReferenceOptions {
  /**
   * The service's port as `URL` spells it (`""` for the scheme's default). When given, a URL on
   * another port is not the service's.
   */
  port?: string;
}

/**
 * The slug `value` names: `value` itself when it is a slug, else the single path segment of an
 * http(s) URL whose host is the service host or its `www.` variant, on the service's port (the
 * scheme may be left out). Anything else throws `InvalidInputError("invalid slug")`.
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
  const onPort = options.port === undefined || url.port === options.port;
  if (!web || !onPort || (host !== serviceHost && host !== `www.${serviceHost}`)) {
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
