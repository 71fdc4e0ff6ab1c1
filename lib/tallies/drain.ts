/**
 * Taking a retired link's share out of every service-wide tally.
 * @module
 */
import { linkRankKey, linkStatsKey, retiringLinkKey, tallyKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { minus } from "./count.ts";
import { RANKED_KINDS } from "./kinds.ts";
import { type RankedName, rerank } from "./rank.ts";
import { clicksOf, eachShare, readLinkStats } from "./shares.ts";

/**
 * Subtracts the link's share from the service-wide tallies and deletes its figures in one
 * atomic commit, then clears its retiring mark and brings the ranked names up to date. Safe to
 * run twice or concurrently: the figures are checked unchanged before they are taken away.
 */
export async function drainRetiredLink(store: Store, id: string): Promise<void> {
  for (;;) {
    const entry = await store.kv.get(linkStatsKey(id));
    const atomic = store.kv.atomic().check(entry).delete(retiringLinkKey(id));
    const ranked: RankedName[] = [];
    if (entry.value !== null) {
      const stats = readLinkStats(entry.value);
      atomic.delete(entry.key).delete(linkRankKey(BigInt(clicksOf(stats)), id));
      for (const [kind, name, count] of eachShare(stats)) {
        atomic.sum(tallyKey(kind, name), minus(BigInt(count)));
        if (RANKED_KINDS.has(kind)) ranked.push({ kind, name });
      }
    }
    const result = await retryLocked(() => atomic.commit());
    if (!result.ok) continue; // a click flush moved first: read again
    await rerank(store, ranked);
    return;
  }
}
