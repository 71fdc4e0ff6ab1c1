/**
 * Links that open a limited number of times: taking a person's visit on the request, in one
 * checked commit, and remembering a link its last visit used up. See
 * docs/decisions/2026-11-28-visit-limits-on-the-request.md.
 * @module
 */
import { BusyError } from "../errors.ts";
import { getManyChunked } from "../kv/get_many.ts";
import { linkKey, linkStatsKey, linkVisitsKey, usedUpLinkKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import { pause } from "../pause.ts";
import type { Store } from "../kv/store.ts";
import { rerankAfter } from "../tallies/rank.ts";
import { type DatedLinkRecord, isExpired, type LinkRecord } from "./record.ts";
import { addRetirement, type RetireOptions } from "./retire.ts";

/** What {@linkcode takeVisit} did. */
export type VisitTaken =
  /** The visit is the person's: send them on. `visitsLeft` 0 means it retired the link. */
  | { taken: true; record: DatedLinkRecord; visitsLeft: number }
  /** The link is no longer there (used up, removed, expired or replaced meanwhile). */
  | { taken: false };

/** A link its last visit used up, as the 404 page and unshorten tell of it: never its destination. */
export interface UsedUpLink {
  slug: string;
  /** Whether a password guarded it. */
  protected: boolean;
  /** The link's original deadline (epoch ms): the mark is kept until then. */
  expiresAt: number;
}

// Concurrent visitors of one link through different instances read the same count, and one
// commit a round wins. Within an instance they take turns (see inTurn), so the rounds a visit
// may lose grow with the instances, not with the visitors; past this many it is refused for
// now, never let through.
const MAX_ATTEMPTS = 64;
const MAX_PAUSE_MS = 20;

/**
 * Takes one person's visit of the limited link `record` in a commit that checks the count and the
 * record unchanged, so no more than `maxVisits` people get through; the last visit retires the
 * link in the same commit, marks its slug used up and drops it from `options.cache`. Throws
 * `BusyError` when other visits kept winning every round it may try.
 */
export function takeVisit(
  store: Store,
  record: DatedLinkRecord,
  options: RetireOptions = {},
): Promise<VisitTaken> {
  return inTurn(store, record.id, () => takeVisitNow(store, record, options));
}

// The visits of one link waiting in this process, by store and link id: each waits for the one
// before it, so a burst here races the store only against other instances, not against itself.
const lines = new WeakMap<Store, Map<string, Promise<unknown>>>();

/** Runs `work` once every earlier call for `id` on `store` in this process has settled. */
function inTurn<T>(store: Store, id: string, work: () => Promise<T>): Promise<T> {
  let line = lines.get(store);
  if (line === undefined) lines.set(store, line = new Map());
  const mine = (line.get(id) ?? Promise.resolve()).then(work, work);
  const settled = mine.then(() => {}, () => {});
  line.set(id, settled);
  void settled.then(() => {
    if (line.get(id) === settled) line.delete(id);
  });
  return mine;
}

async function takeVisitNow(
  store: Store,
  record: DatedLinkRecord,
  options: RetireOptions,
): Promise<VisitTaken> {
  const { slug, id } = record;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const [entry, count] = await store.kv.getMany<[LinkRecord, unknown]>([
      linkKey(slug),
      linkVisitsKey(id),
    ]);
    const current = entry.value;
    const now = store.now();
    if (current === null || current.id !== id || isExpired(current, now)) return { taken: false };
    const dated = current as DatedLinkRecord;
    if (dated.maxVisits === undefined) return { taken: true, record: dated, visitsLeft: 0 };
    const taken = count.value instanceof Deno.KvU64 ? Number(count.value.value) : 0;
    const left = dated.maxVisits - taken;
    if (left <= 0) return { taken: false }; // only a record written by hand gets here
    const atomic = store.kv.atomic().check(entry).check(count);
    let ranked: ReturnType<typeof addRetirement> = [];
    if (left === 1) {
      ranked = addRetirement(atomic, dated, await store.kv.get(linkStatsKey(id)));
      const mark: UsedUpLink = {
        slug,
        protected: dated.passHash !== null,
        expiresAt: dated.expiresAt,
      };
      atomic.set(usedUpLinkKey(slug), mark, { expireIn: Math.max(dated.expiresAt - now, 1) });
    } else {
      atomic.sum(linkVisitsKey(id), 1n);
    }
    const result = await retryLocked(() => atomic.commit());
    if (result.ok) {
      if (left === 1) {
        options.cache?.delete(slug);
        await rerankAfter(store, ranked);
      }
      return { taken: true, record: dated, visitsLeft: left - 1 };
    }
    // Another visit (or a flush of this link's figures) committed first: read again.
    await pause(Math.random() * Math.min(2 ** attempt, MAX_PAUSE_MS));
  }
  throw new BusyError(`link "${slug}"`);
}

/** The visits each record has left, in order: `null` for a link without a limit. */
export async function readVisitsLeft(
  store: Store,
  records: LinkRecord[],
): Promise<(number | null)[]> {
  const limited = records.filter((record) => record.maxVisits !== undefined);
  const counts = await getManyChunked(store.kv, limited.map((record) => linkVisitsKey(record.id)));
  const taken = new Map(limited.map((record, i) => {
    const value = counts[i]!.value;
    return [record.id, value instanceof Deno.KvU64 ? Number(value.value) : 0];
  }));
  return records.map((record) =>
    record.maxVisits === undefined
      ? null
      : Math.max(0, record.maxVisits - (taken.get(record.id) ?? 0))
  );
}

/** The link last used up under `slug`, while its deadline has not passed; else `null`. */
export async function findUsedUpLink(store: Store, slug: string): Promise<UsedUpLink | null> {
  // A mark written before limited destinations were withheld has `url` (null when protected)
  // in place of `protected`; only the fields below are ever read from it.
  const entry = await store.kv.get<UsedUpLink & { url?: string | null }>(usedUpLinkKey(slug));
  const mark = entry.value;
  // The store may keep a mark readable for a while past its time.
  if (mark === null || mark.expiresAt <= store.now()) return null;
  return {
    slug: mark.slug,
    protected: mark.protected ?? mark.url === null,
    expiresAt: mark.expiresAt,
  };
}
