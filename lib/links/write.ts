/**
 * The keys a link occupies, written together in one atomic commit.
 * @module
 */
import { linkByCreatedKey, linkByExpiryKey, linkKey, undatedLinkKey } from "../kv/keys.ts";
import { EXPIRED_GRACE_MS } from "../kv/store.ts";
import type { LinkRecord } from "./record.ts";

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
