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
 * Moves every name of a ranked tally whose place differs from its count (left by a process that
 * stopped before its rerank), a commit's worth at a time, and deletes counters at zero with no
 * place. Returns how many names it moved.
 */
export async function repairRanks(store: Store): Promise<number> {
  let moved = 0;
  for (const kind of RANKED_KINDS) {
    moved += await repairWalk(store, kind, "counters");
    moved += await repairWalk(store, kind, "places");
  }
  return moved;
}

// Tries at a move that another writer keeps beating, for the repair.
const REPAIR_TRIES = 5;

/** {@linkcode repairRanks} over one side of one kind: its counters, or its places. */
async function repairWalk(
  store: Store,
  kind: string,
  side: "counters" | "places",
): Promise<number> {
  const counters = side === "counters";
  let moved = 0;
  let group: Deno.KvEntry<unknown>[] = [];
  const settle = async () => {
    const names = group.map((entry) => entry.key[2] as string);
    const others = await getManyChunked(
      store.kv,
      names.map((name) => counters ? tallyRankedAtKey(kind, name) : tallyKey(kind, name)),
    );
    const lagging: RankedName[] = [];
    const unused = store.kv.atomic();
    let unusedCount = 0;
    group.forEach((entry, i) => {
      const [counter, place] = counters ? [entry, others[i]!] : [others[i]!, entry];
      const count = readCount(counter.value);
      if (count !== readCount(place.value)) lagging.push({ kind, name: names[i]! });
      else if (counters && count === 0n) {
        unused.check(counter, place).delete(counter.key);
        unusedCount++;
      }
    });
    group = [];
    // A name counted meanwhile fails the check and keeps its counter, all of this group with it
    // until the next repair.
    if (unusedCount > 0) await retryLocked(() => unused.commit());
    moved += await placeAll(store, lagging);
  };
  const prefix = counters ? talliesPrefix(kind) : tallyRankedAtPrefix(kind);
  for await (const entry of store.kv.list({ prefix })) {
    if (typeof entry.key[2] !== "string") continue; // not a name any writer makes
    group.push(entry);
    if (group.length === NAMES_PER_COMMIT) await settle();
  }
  if (group.length > 0) await settle();
  return moved;
}

/**
 * Moves `names` in one commit, or one at a time when other writers keep beating it; returns
 * how many moved.
 */
async function placeAll(store: Store, names: RankedName[]): Promise<number> {
  if (names.length === 0) return 0;
  const moved = await rerankChunk(store, names, REPAIR_TRIES);
  if (moved !== null || names.length === 1) return moved ?? 0;
  let each = 0;
  for (const name of names) each += await rerankChunk(store, [name], REPAIR_TRIES) ?? 0;
  return each;
}

/**
 * Moves each of `names` to the place its count gives it, read again when another writer moved
 * first, up to `tries` times; returns how many moved, or null when every try was beaten.
 */
async function rerankChunk(
  store: Store,
  names: RankedName[],
  tries = Infinity,
): Promise<number | null> {
  for (let tried = 0; tried < tries; tried++) {
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
  return null;
}
