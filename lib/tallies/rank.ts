/**
 * Keeping the names of a ranked tally in order of their counts, so the most frequent are read
 * without a scan. Counts change by plain sums wherever they change; the order of the names
 * whose counts changed is then brought up to date here.
 * @module
 */
import { getManyChunked } from "../kv/get_many.ts";
import { tallyKey, tallyRankedAtKey, tallyRankKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { readCount } from "./count.ts";

/** A name of a ranked tally. */
export interface RankedName {
  kind: string;
  name: string;
}

// Each name costs two checks; an atomic allows 100.
const NAMES_PER_COMMIT = 45;

/**
 * Moves each of `names` to the place its current count gives it. Each move is checked against
 * the count it read, and read again when another writer moved first.
 */
export async function rerank(store: Store, names: Iterable<RankedName>): Promise<void> {
  const all = [...names];
  for (let i = 0; i < all.length; i += NAMES_PER_COMMIT) {
    await rerankChunk(store, all.slice(i, i + NAMES_PER_COMMIT));
  }
}

async function rerankChunk(store: Store, names: RankedName[]): Promise<void> {
  for (;;) {
    const entries = await getManyChunked(
      store.kv,
      names.flatMap(({ kind, name }) => [tallyKey(kind, name), tallyRankedAtKey(kind, name)]),
    );
    const atomic = store.kv.atomic();
    let moves = 0;
    names.forEach(({ kind, name }, i) => {
      const tally = entries[2 * i]!;
      const rankedAt = entries[2 * i + 1]!;
      const count = readCount(tally.value);
      const before = readCount(rankedAt.value);
      if (count === before) return;
      atomic.check(tally, rankedAt);
      if (before > 0n) atomic.delete(tallyRankKey(kind, before, name));
      if (count > 0n) {
        atomic.set(tallyRankKey(kind, count, name), null);
        atomic.set(tallyRankedAtKey(kind, name), count);
      } else {
        atomic.delete(tallyRankedAtKey(kind, name));
      }
      moves++;
    });
    if (moves === 0) return;
    const result = await retryLocked(() => atomic.commit());
    if (result.ok) return;
  }
}
