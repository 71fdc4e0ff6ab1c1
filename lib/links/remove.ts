/**
 * Removing links: by request, and when their time is up.
 * @module
 */
import { LinkNotFoundError } from "../errors.ts";
import { linkKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { drainRetiredLink } from "../tallies/drain.ts";
import { lookupLink } from "./read.ts";
import type { LinkRecord } from "./record.ts";
import { addLinkRetirement } from "./write.ts";

/**
 * Removes the live link under `slug` at once, with all its figures; no password is needed.
 * Throws `LinkNotFoundError` when there is no live link of that name.
 */
export async function removeLink(store: Store, slug: string): Promise<LinkRecord> {
  for (;;) {
    const found = await lookupLink(store, slug);
    if (found.status !== "live") throw new LinkNotFoundError(slug);
    if (await retireLink(store, found.record, found.versionstamp)) return found.record;
    // The record changed under us (stamped, removed, replaced): look again.
  }
}

/**
 * Retires `record` if it is still the one stored with `versionstamp`: removes its keys in one
 * commit, then takes its share out of every figure. Returns whether this call retired it.
 */
export async function retireLink(
  store: Store,
  record: LinkRecord,
  versionstamp: string | null,
): Promise<boolean> {
  const atomic = store.kv.atomic().check({ key: linkKey(record.slug), versionstamp });
  addLinkRetirement(atomic, record);
  const result = await retryLocked(() => atomic.commit());
  if (!result.ok) return false;
  store.cache.delete(record.slug);
  await drainRetiredLink(store, record.id);
  return true;
}
