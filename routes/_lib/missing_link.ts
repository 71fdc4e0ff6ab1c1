/**
 * What the 404 page says of a missing link: where an expired one pointed, or that the name is free.
 * @module
 */
import type { MissingLink } from "../../components/NotFoundPage.tsx";
import { CUSTOM_SLUG_PATTERN, type LinkLookup, visibleUrl } from "../../lib/links/mod.ts";

/** What the 404 page says of `slug`, which `found` says is not live. */
export function describeMissing(slug: string, found: LinkLookup): MissingLink {
  // Only a name a custom slug may take is offered; an old link's name may be shorter.
  const claimable = CUSTOM_SLUG_PATTERN.test(slug);
  if (found.status !== "expired") return claimable ? { kind: "free", slug } : { kind: "none" };
  const { record } = found;
  return {
    kind: "expired",
    slug,
    expiresAt: new Date(record.expiresAt).toISOString(),
    url: visibleUrl(record), // the 404 page never names a protected or limited destination
    protected: record.passHash !== null,
    claimable,
  };
}

/** The one path segment of `path`, decoded, or `null`. */
export function singleSegment(path: string): string | null {
  const match = /^\/([^/]+)$/.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}
