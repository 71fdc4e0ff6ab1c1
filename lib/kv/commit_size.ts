/**
 * Sizing atomic commits: what one part of a commit costs against the store's limits, and items
 * grouped into commits that keep within them.
 * @module
 */

/** What part of an atomic commit costs, counted as the store limits a commit. */
export interface CommitCost {
  checks: number;
  mutations: number;
  /** Bytes of the keys it checks and writes, a generous bound. */
  keyBytes: number;
}

/** The store's limits on one atomic commit: 100 checks, 1,000 mutations, 80 KiB of keys. */
export const COMMIT_LIMITS: Readonly<CommitCost> = {
  checks: 100,
  mutations: 1000,
  keyBytes: 80 * 1024,
};

/**
 * The key bytes a commit of many links is kept to: the store's 80 KiB less a margin for what
 * the estimates below leave out.
 */
export const KEY_BYTES_BUDGET = 64 * 1024;

/**
 * A generous bound on the bytes of the keys one link's part of a commit touches besides those
 * ending in names: its record, index entries, figures and ranks, a day's and the clicks' sums.
 */
export const LINK_KEY_BYTES = 400;

/**
 * A generous bound on the bytes a key that ends in `name` takes: up to three bytes a
 * character, and the rest of the key.
 */
export function nameKeyBytes(name: string): number {
  return name.length * 3 + 40;
}

/**
 * `items` in order, in groups of at most `maxItems` whose costs add up to within `limits`. An
 * item over the limits alone is a group of its own: the store refuses it, and the caller
 * decides what to do with it.
 */
export function* groupsWithin<T>(
  items: Iterable<T>,
  costOf: (item: T) => CommitCost,
  limits: Readonly<CommitCost>,
  maxItems = Infinity,
): Generator<T[]> {
  let group: T[] = [];
  let checks = 0;
  let mutations = 0;
  let keyBytes = 0;
  for (const item of items) {
    const cost = costOf(item);
    if (
      group.length >= maxItems ||
      (group.length > 0 && (
        checks + cost.checks > limits.checks ||
        mutations + cost.mutations > limits.mutations ||
        keyBytes + cost.keyBytes > limits.keyBytes
      ))
    ) {
      yield group;
      group = [];
      checks = 0;
      mutations = 0;
      keyBytes = 0;
    }
    group.push(item);
    checks += cost.checks;
    mutations += cost.mutations;
    keyBytes += cost.keyBytes;
  }
  if (group.length > 0) yield group;
}
