/**
 * Reading links: every read checks the deadline, and gives a legacy record its deadline.
 * @module
 */
import { linkKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { readLinkFigures } from "../tallies/link_figures.ts";
import { stampLegacyLink } from "./legacy.ts";
import { type DatedLinkRecord, isExpired, type LinkCounters, type LinkRecord } from "./record.ts";
import type { LinkCache } from "./cache.ts";

/** What the store knows of a slug. */
export type LinkLookup =
  | { status: "live"; record: DatedLinkRecord; versionstamp: string }
  | { status: "expired"; record: DatedLinkRecord; versionstamp: string }
  | { status: "missing" };

/** Looks `slug` up: live, expired (and not yet swept), or missing. */
export async function lookupLink(store: Store, slug: string): Promise<LinkLookup> {
  const entry = await store.kv.get<LinkRecord>(linkKey(slug));
  if (entry.value === null) return { status: "missing" };
  const dated = await stampLegacyLink(store, entry.value, entry.versionstamp);
  if (dated === null) return lookupLink(store, slug); // changed while stamping: read again
  const status = isExpired(dated.record, store.now()) ? "expired" : "live";
  return { status, ...dated };
}

/**
 * Looks `slug` up for the redirect: from `cache`, this process's, when it holds the link and its
 * deadline has not passed, else from the store, caching a live link there for next time.
 */
export async function resolveLink(
  store: Store,
  slug: string,
  cache: LinkCache,
): Promise<LinkLookup> {
  const cached = cache.get(slug);
  if (cached !== undefined) {
    if (cached.record.expiresAt > store.now()) return { status: "live", ...cached };
    cache.delete(slug);
  }
  const generation = cache.generation;
  const found = await lookupLink(store, slug);
  if (found.status === "live") cache.set(found.record, found.versionstamp, generation);
  return found;
}

/** The live link under `slug`, or `null`. */
export async function getLiveLink(store: Store, slug: string): Promise<DatedLinkRecord | null> {
  const found = await lookupLink(store, slug);
  return found.status === "live" ? found.record : null;
}

/**
 * The click figures of each link id, in order: clicks from its record and the click journals (2 s
 * behind at most), last use from its figures (`STATS_LAG_SECONDS` behind at most).
 */
export async function readCounters(store: Store, ids: string[]): Promise<LinkCounters[]> {
  const figures = await readLinkFigures(store, ids);
  return figures.map((link) => ({
    clicks: link?.clicks ?? 0,
    lastUsedAt: link?.lastUsedAt ?? null,
  }));
}
