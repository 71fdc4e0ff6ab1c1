/**
 * Keeping names in order of their counts, so the most frequent are read without a scan.
 * @module
 */
import { tallyRankKey } from "../kv/keys.ts";

/** Adds to `atomic` the move of `name` in `kind`'s order from count `from` to count `to`. */
export function moveRank(
  atomic: Deno.AtomicOperation,
  kind: string,
  name: string,
  from: bigint,
  to: bigint,
): void {
  if (from === to) return;
  if (from > 0n) atomic.delete(tallyRankKey(kind, from, name));
  if (to > 0n) atomic.set(tallyRankKey(kind, to, name), null);
}
