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
import type { RemovalWatch } from "./removal_watch.ts";

/** Options of {@linkcode removeLink}. */
export interface RemoveOptions {
  /**
   * This process's watch of removals: its link cache forgets the link at once, and the removal
   * waits for every other instance to forget it too. A process that serves no redirect (a task,
   * a test of the store) has none, and waits for no one.
   */
  removals?: RemovalWatch;
  /**
   * Told when the removal resolves before every instance has said it forgot the link: one
   * lagged past the bound, or the store failed to tell.
   */
  onUnconfirmed?: () => void;
}

/**
 * Removes the live link under `slug` at once, with all its figures; no password is needed.
 * With `options.removals`, resolves once every instance sharing the store has forgotten its
 * cached copy (or a second has passed: see `RemovalWatch.waitForEveryInstance`), so no redirect
 * anywhere follows the link after this returns. Throws `LinkNotFoundError` when there is no live
 * link of that name.
 */
export async function removeLink(
  store: Store,
  slug: string,
  options: RemoveOptions = {},
): Promise<LinkRecord> {
  const { removals } = options;
  for (;;) {
    const found = await lookupLink(store, slug);
    if (found.status !== "live") throw new LinkNotFoundError(slug);
    const proof = { key: linkKey(slug), value: found.record, versionstamp: found.versionstamp };
    const retired = await retireLinks(store, [{ link: found.record, proof }], {
      cache: removals?.cache,
    });
    if (retired.length > 0) {
      if (removals && !(await removals.waitForEveryInstance())) options.onUnconfirmed?.();
      return found.record;
    }
    // The record changed under us (stamped, removed, replaced): look again.
  }
}
