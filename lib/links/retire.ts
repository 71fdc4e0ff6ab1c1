/**
 * Retiring links: removing every key a link occupies and taking its share out of every
 * service-wide tally, in the same atomic commit, so the figures never count a link that is gone.
 * @module
 */
import {
  COMMIT_LIMITS,
  type CommitCost,
  groupsWithin,
  KEY_BYTES_BUDGET,
  LINK_KEY_BYTES,
  nameKeyBytes,
} from "../kv/commit_size.ts";
import { getManyChunked } from "../kv/get_many.ts";
import {
  cacheEpochKey,
  cacheRemovalKey,
  linkByCreatedKey,
  linkByExpiryKey,
  linkClicksKey,
  linkKey,
  linkRankKey,
  linkStatsKey,
  linkVisitsKey,
  tallyKey,
  undatedLinkKey,
} from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { minus } from "../tallies/count.ts";
import { RANKED_KINDS, tallyNameKey } from "../tallies/kinds.ts";
import { type RankedName, rerankAfter } from "../tallies/rank.ts";
import { clicksOf, eachShare, readLinkStats } from "../tallies/shares.ts";
import type { LinkCache } from "./cache.ts";

// How long a removal stays in the log instances read; an instance further behind than this
// drops its whole cache instead (see removal_watch.ts).
const REMOVAL_LOG_MS = 10 * 60_000;
// The bytes of a removal log key: its prefix, a time and a link id.
const REMOVAL_KEY_BYTES = 80;

/** A link to retire, as far as its keys go. */
export interface RetiredLink {
  id: string;
  slug: string;
  /** Its deadline, or `null` for an undated legacy record. */
  expiresAt: number | null;
}

/** Options of {@linkcode addRetirement}. */
export interface RetirementOptions {
  /** Leave the record under the slug alone: it already belongs to a newer link. */
  keepRecord?: boolean;
}

/**
 * Adds to `atomic` the removal of every key `link` occupies and of its share of every tally
 * (`stats` is its figures as read, checked unchanged), a bump of the cache epoch and an entry
 * in the removal log, so every instance forgets it (see `RemovalWatch`). The caller adds the
 * check that the link is still the one stored.
 * Returns the ranked names whose counts this changes, for {@linkcode rerank} after the commit.
 */
export function addRetirement(
  atomic: Deno.AtomicOperation,
  link: RetiredLink,
  stats: Deno.KvEntryMaybe<unknown>,
  options: RetirementOptions = {},
): RankedName[] {
  if (!options.keepRecord) atomic.delete(linkKey(link.slug));
  atomic.delete(linkByCreatedKey(link.id));
  // A limited link's visits taken; nothing there for any other, which costs one mutation.
  atomic.delete(linkVisitsKey(link.id));
  if (link.expiresAt === null) atomic.delete(undatedLinkKey(link.slug));
  else atomic.delete(linkByExpiryKey(link.expiresAt, link.slug));
  atomic.sum(cacheEpochKey(), 1n);
  atomic.set(cacheRemovalKey(Date.now(), link.id), link.slug, { expireIn: REMOVAL_LOG_MS });
  // The clicks' counter versions before 2026-12-02 kept a link: nothing reads it now.
  atomic.delete(linkClicksKey(link.id));
  atomic.check(stats);
  const ranked: RankedName[] = [];
  if (stats.value === null) return ranked;
  const figures = readLinkStats(stats.value);
  atomic.delete(stats.key).delete(linkRankKey(BigInt(clicksOf(figures)), link.id));
  for (const [kind, name, count] of eachShare(figures)) {
    atomic.sum(tallyKey(kind, name), minus(BigInt(count)));
    if (RANKED_KINDS.has(kind)) ranked.push({ kind, name });
  }
  return ranked;
}

/** A link to retire with the entry whose check proves it is still the one stored. */
export interface RetirementTarget {
  link: RetiredLink;
  /** Checked unchanged: the record under the slug, or the expiry entry when `keepRecord`. */
  proof: Deno.KvEntryMaybe<unknown>;
  /** See {@linkcode RetirementOptions.keepRecord}. */
  keepRecord?: boolean;
}

// Targets whose figures are read together; a link's retirement costs two checks, so this many
// fit one commit when they hold few shares. Links that hold many share the targets out over
// more commits (see costOfRetirement).
const TARGETS_PER_READ = 40;
// A link that holds the most shares a link can (a hundred referring hosts with `direct` and
// `other`, every country, a year of days: LINK_TTL_SECONDS is at most a year) fits a commit
// alone within these.
const RETIREMENT_LIMITS = { ...COMMIT_LIMITS, mutations: 900, keyBytes: KEY_BYTES_BUDGET };

/** Options of the functions that retire links. */
export interface RetireOptions {
  /** This process's link cache, which forgets each link retired at once. */
  cache?: LinkCache;
}

/**
 * Retires each target whose proof still holds, many to a commit. Returns the targets retired;
 * a target whose proof no longer holds (another writer moved first) is left out, not retried.
 */
export async function retireLinks(
  store: Store,
  targets: RetirementTarget[],
  options: RetireOptions = {},
): Promise<RetirementTarget[]> {
  const retired: RetirementTarget[] = [];
  const touched = new Map<string, RankedName>();
  for (let start = 0; start < targets.length; start += TARGETS_PER_READ) {
    const group = targets.slice(start, start + TARGETS_PER_READ);
    await retireGroup(store, group, { retired, touched, cache: options.cache });
  }
  await rerankAfter(store, touched.values());
  return retired;
}

/** What retiring groups of links has done so far. */
interface Retirements {
  retired: RetirementTarget[];
  /** The ranked names whose counts changed, for {@linkcode rerank}. */
  touched: Map<string, RankedName>;
  /** See {@linkcode RetireOptions.cache}. */
  cache: LinkCache | undefined;
}

/**
 * Retires `group` in one commit, or, when the figures it holds make one commit too large, in
 * as many as they need; read again and retried without the targets another writer moved first.
 */
async function retireGroup(
  store: Store,
  group: RetirementTarget[],
  done: Retirements,
): Promise<void> {
  while (group.length > 0) {
    const stats = await getManyChunked(store.kv, group.map((t) => linkStatsKey(t.link.id)));
    const parts = [
      ...groupsWithin(
        group.keys(),
        (i) => costOfRetirement(group[i]!, stats[i]!),
        RETIREMENT_LIMITS,
      ),
    ];
    if (parts.length > 1) {
      for (const part of parts) await retireGroup(store, part.map((i) => group[i]!), done);
      return;
    }
    const atomic = store.kv.atomic();
    const ranked = group.flatMap((target, i) => {
      atomic.check(target.proof);
      return addRetirement(atomic, target.link, stats[i]!, { keepRecord: target.keepRecord });
    });
    const result = await retryLocked(() => atomic.commit());
    if (result.ok) {
      for (const target of group) done.cache?.delete(target.link.slug);
      for (const name of ranked) done.touched.set(tallyNameKey(name.kind, name.name), name);
      done.retired.push(...group);
      return;
    }
    // Someone moved first: keep the targets whose proof still holds, and try those again.
    const proofs = await getManyChunked(store.kv, group.map((t) => t.proof.key));
    group = group.filter((target, i) => proofs[i]!.versionstamp === target.proof.versionstamp);
  }
}

/** What {@linkcode addRetirement} and the proof's check add to a commit for `target`. */
function costOfRetirement(
  target: RetirementTarget,
  stats: Deno.KvEntryMaybe<unknown>,
): CommitCost {
  const cost = {
    checks: 2,
    mutations: target.keepRecord ? 6 : 7,
    keyBytes: LINK_KEY_BYTES + REMOVAL_KEY_BYTES,
  };
  if (stats.value === null) return cost;
  cost.mutations += 2;
  // Counted on the stored record as it is: no copy of its figures is made for a count.
  const shares = (stats.value as { shares?: unknown }).shares;
  if (typeof shares !== "object" || shares === null) return cost;
  for (const names of Object.values(shares)) {
    if (typeof names !== "object" || names === null) continue;
    for (const name of Object.keys(names)) {
      cost.mutations++;
      cost.keyBytes += nameKeyBytes(name);
    }
  }
  return cost;
}
