/**
 * The keys a link occupies, written and removed together in one atomic commit.
 * @module
 */
import {
  cacheEpochKey,
  linkByCreatedKey,
  linkByExpiryKey,
  linkKey,
  retiringLinkKey,
  undatedLinkKey,
} from "../kv/keys.ts";
import { EXPIRED_GRACE_MS } from "../kv/store.ts";
import type { LinkRecord } from "./record.ts";

/** What a retiring mark holds: enough to finish the retirement after a crash. */
export interface RetiringLink {
  id: string;
  slug: string;
}

/**
 * Adds to `atomic` the record under its slug, its copy in the creation-order index, and its
 * entry in the expiry index (or the undated index for a legacy record). The store drops the
 * record a day after its deadline even if no sweep runs; the expiry entry stays so the sweep
 * still retires its figures.
 */
export function addLinkWrites(atomic: Deno.AtomicOperation, record: LinkRecord, now: number): void {
  const options = record.expiresAt === null
    ? undefined
    : { expireIn: Math.max(record.expiresAt - now, 0) + EXPIRED_GRACE_MS };
  atomic.set(linkKey(record.slug), record, options);
  atomic.set(linkByCreatedKey(record.id), record, options);
  if (record.expiresAt === null) atomic.set(undatedLinkKey(record.slug), record.id);
  else atomic.set(linkByExpiryKey(record.expiresAt, record.slug), record.id);
}

/**
 * Adds to `atomic` the removal of every key `record` occupies, a retiring mark so its figures
 * are taken out of the totals next, and a bump of the cache epoch so every instance forgets it.
 * The caller adds the check that makes this happen once.
 */
export function addLinkRetirement(atomic: Deno.AtomicOperation, record: LinkRecord): void {
  atomic.delete(linkKey(record.slug));
  atomic.delete(linkByCreatedKey(record.id));
  if (record.expiresAt === null) atomic.delete(undatedLinkKey(record.slug));
  else atomic.delete(linkByExpiryKey(record.expiresAt, record.slug));
  const mark: RetiringLink = { id: record.id, slug: record.slug };
  atomic.set(retiringLinkKey(record.id), mark);
  atomic.sum(cacheEpochKey(), 1n);
}
