/**
 * Taking a retired link's share out of every service-wide tally.
 * @module
 */
import {
  linkLastUsedKey,
  linkRankKey,
  linkTalliesPrefix,
  retiringLinkKey,
  tallyKey,
} from "../kv/keys.ts";
import { getManyChunked } from "../kv/get_many.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { minus, readCount } from "./count.ts";
import { CLICKS, RANKED_KINDS } from "./kinds.ts";
import { moveRank } from "./rank.ts";

// Each entry costs up to two checks (its own and its global's); an atomic allows 100.
const CHUNK = 40;

/**
 * Subtracts the link's own counters from the service-wide ones and deletes them, in chunks that
 * each commit atomically, then clears its retiring mark. Safe to run twice or concurrently: each
 * counter is checked unchanged before it is taken away.
 */
export async function drainRetiredLink(store: Store, id: string): Promise<void> {
  const { kv } = store;
  for (;;) {
    const entries: Deno.KvEntry<unknown>[] = [];
    for await (const entry of kv.list({ prefix: linkTalliesPrefix(id) }, { limit: CHUNK })) {
      entries.push(entry);
    }
    const atomic = kv.atomic();
    if (entries.length === 0) {
      atomic.delete(linkLastUsedKey(id)).delete(retiringLinkKey(id));
      await retryLocked(() => atomic.commit());
      return;
    }
    const ranked = entries.filter((entry) => RANKED_KINDS.has(String(entry.key[2])));
    const totals = await getManyChunked(
      kv,
      ranked.map((entry) => tallyKey(String(entry.key[2]), String(entry.key[3]))),
    );
    const totalOf = new Map(ranked.map((entry, i) => [entry, totals[i]]));
    for (const entry of entries) {
      const kind = String(entry.key[2]);
      const name = String(entry.key[3]);
      const share = readCount(entry.value);
      atomic.check(entry).delete(entry.key);
      if (kind === CLICKS) atomic.delete(linkRankKey(share, id));
      if (share === 0n) continue;
      atomic.sum(tallyKey(kind, name), minus(share));
      const total = totalOf.get(entry);
      if (total) {
        const count = readCount(total.value);
        atomic.check(total);
        moveRank(atomic, kind, name, count, count > share ? count - share : 0n);
      }
    }
    await retryLocked(() => atomic.commit());
    // A failed check means another drain or a click flush moved first: list again.
  }
}
