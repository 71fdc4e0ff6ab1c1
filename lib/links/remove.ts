/**
 * Removing a link by request.
 * @module
 */
import { LinkNotFoundError } from "../errors.ts";
import { linkKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { lookupLink } from "./read.ts";
import type { LinkRecord } from "./record.ts";
import { retireLinks } from "./retire.ts";
import { linkCacheOf } from "./cache.ts";

/** Options of {@linkcode removeLink}. */
export interface RemoveOptions {
  /**
   * Told when the removal resolves before every instance has said it forgot the link: one
   * lagged past the bound, or the store failed to tell.
   */
  onUnconfirmed?: () => void;
}

/**
 * Removes the live link under `slug` at once, with all its figures; no password is needed.
 * Resolves once every instance sharing the store has forgotten its cached copy (or a second has
 * passed: see `LinkCache.seenEverywhere`), so no redirect anywhere follows the link after this
 * returns. Throws `LinkNotFoundError` when there is no live link of that name.
 */
export async function removeLink(
  store: Store,
  slug: string,
  options: RemoveOptions = {},
): Promise<LinkRecord> {
  for (;;) {
    const found = await lookupLink(store, slug);
    if (found.status !== "live") throw new LinkNotFoundError(slug);
    const proof = { key: linkKey(slug), value: found.record, versionstamp: found.versionstamp };
    const retired = await retireLinks(store, [{ link: found.record, proof }]);
    if (retired.length > 0) {
      if (!(await linkCacheOf(store).seenEverywhere(store.kv))) options.onUnconfirmed?.();
      return found.record;
    }
    // The record changed under us (stamped, removed, replaced): look again.
  }
}
