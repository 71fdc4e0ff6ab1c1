/**
 * Keeping the names of a ranked tally in order of their counts, so the most frequent are read
 * without a scan. Counts change by plain sums wherever they change; the order of the names
 * whose counts changed is then brought up to date here.
 * @module
 */
import { getManyChunked } from "../kv/get_many.ts";
import {
  talliesPrefix,
  tallyKey,
  tallyRankedAtKey,
  tallyRankedAtPrefix,
  tallyRankKey,
} from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { StoreUnavailableError } from "../errors.ts";
import { readCount } from "./count.ts";
import { RANKED_KINDS, tallyNameKey } from "./kinds.ts";

/** A name of a ranked tally. */
export interface RankedName {
  kind: string;
  name: string;
}

// Each name costs two checks; an atomic allows 100.
const NAMES_PER_COMMIT = 45;

// Names whose place a failed rerank left behind their count, by store: the next rerank on the
// store places them too (the click flush reranks every second).
const behind = new WeakMap<Store, Map<string, RankedName>>();

/**
 * Moves each of `names`, and any a failed rerank left behind, to the place its current count
 * gives it. Each move is checked against the count it read, and read again when another writer
 * moved first. When the store fails, the names not yet placed wait for the next rerank.
 */
export async function rerank(store: Store, names: Iterable<RankedName>): Promise<void> {
  const pending = new Map(behind.get(store));
  behind.delete(store);
  for (const name of names) pending.set(tallyNameKey(name.kind, name.name), name);
  const all = [...pending.values()];
  for (let i = 0; i < all.length; i += NAMES_PER_COMMIT) {
    try {
      await rerankChunk(store, all.slice(i, i + NAMES_PER_COMMIT));
    } catch (error) {
      const left = behind.get(store) ?? new Map<string, RankedName>();
      for (const name of all.slice(i)) left.set(tallyNameKey(name.kind, name.name), name);
      behind.set(store, left);
      throw error;
    }
  }
}

/**
 * {@linkcode rerank} after a commit that already changed the counts: the store failing is not
 * the caller's failure (what it did is done), and the names wait for the next rerank. Any other
 * error is thrown.
 */
export async function rerankAfter(store: Store, names: Iterable<RankedName>): Promise<void> {
  try {
    await rerank(store, names);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
  }
}

/**
 * Finds every name of a ranked tally whose place differs from its count and moves it: a process
 * that stopped between a commit that changed counts and its rerank leaves such names, which
 * would otherwise wait for their count to change again (the stats read names in the order of
 * their places). Reads each kind's counts, then its places, a commit's worth of names at a
 * time, so memory stays flat whatever the number of names. Returns how many names it moved.
 */
export async function repairRanks(store: Store): Promise<number> {
  let moved = 0;
  for (const kind of RANKED_KINDS) {
    // A name with a count and a name with a place: a name with both is read twice, and moved
    // at most once.
    for (const prefix of [talliesPrefix(kind), tallyRankedAtPrefix(kind)]) {
      const names: RankedName[] = [];
      const place = async () => {
        moved += await rerankChunk(store, names.splice(0));
      };
      for await (const entry of store.kv.list({ prefix })) {
        names.push({ kind, name: String(entry.key[2]) });
        if (names.length === NAMES_PER_COMMIT) await place();
      }
      await place();
    }
  }
  return moved;
}

/** Moves each of `names` to the place its count gives it; returns how many moved. */
async function rerankChunk(store: Store, names: RankedName[]): Promise<number> {
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
    if (moves === 0) return 0;
    const result = await retryLocked(() => atomic.commit());
    if (result.ok) return moves;
  }
}
