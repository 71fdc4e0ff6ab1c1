/**
 * The redirect's one rule: whether a link sends any visitor on at once, with nothing to decide
 * on the way. The redirect's fast path (a link this process holds in its cache) and its route
 * (any link, read from the store) both ask it, so the rule is written once.
 * @module
 */
import type { LinkCache } from "./cache.ts";
import { type DatedLinkRecord, hasVisitLimit } from "./record.ts";

/**
 * Whether `record` is a live, open link at `now`: its deadline not passed, no password to ask
 * for, and no limit of visits to take one from. A link that fails this is answered by the
 * route, which decides the rest (the unlock page, a visit taken, the 404 page).
 */
export function isLiveAndUnguarded(record: DatedLinkRecord, now: number): boolean {
  return record.expiresAt > now && record.passHash === null && !hasVisitLimit(record);
}

/**
 * The live, open link under `slug` that this process holds in its cache at `now`, or `null`:
 * then the route reads the store and decides. Synchronous, no store read: the redirect's fast
 * path.
 */
export function cachedOpenLink(
  cache: LinkCache,
  slug: string,
  now: number,
): DatedLinkRecord | null {
  const cached = cache.get(slug);
  return cached !== undefined && isLiveAndUnguarded(cached.record, now) ? cached.record : null;
}
