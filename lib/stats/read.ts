/**
 * Reading the stats from aggregates kept up to date at create, flush, remove and sweep time, so
 * the cost does not grow with the number of links. Only links that have expired but are not yet
 * swept are taken out at read time.
 * @module
 */
import {
  linkRanksPrefix,
  linksByExpiryPrefix,
  linkStatsKey,
  tallyKey,
  tallyRanksPrefix,
} from "../kv/keys.ts";
import { getManyChunked } from "../kv/get_many.ts";
import type { Store } from "../kv/store.ts";
import { shortUrlOf } from "../links/record.ts";
import { readCount } from "../tallies/count.ts";
import { readLinkFigures } from "../tallies/link_figures.ts";
import {
  CLICK_TALLY,
  COUNTRY_TALLY,
  DAY_CLICK_TALLY,
  DAY_LINK_TALLY,
  DAY_MS,
  dayOf,
  DEVICE_TALLY,
  LINK_TALLY,
  REFERRER_TALLY,
  tallyNameKey,
} from "../tallies/kinds.ts";
import { eachShare, readLinkStats } from "../tallies/shares.ts";
import type { Stats, StatsCount, StatsTopLink } from "./types.ts";

/** Most links in `top`. */
export const TOP_LINKS = 10;
/** Most names in each of `referrers`, `devices` and `countries`. */
export const TOP_NAMES = 20;

// The store reads at most 1,000 entries a batch of a list.
const MAX_LIST_BATCH = 1000;

/** Options of {@linkcode readStats}. */
export interface ReadStatsOptions {
  /** Public origin, for short URLs. */
  baseUrl: string;
}

// Reads tried in all when expired links are retired while the stats are read.
const MAX_READS = 5;

/**
 * The service-wide stats over live links. The shares of links expired and not yet swept are
 * taken out of the totals as they are read; a sweep (or a claim of an expired name) that retires
 * one of them before the totals are read would take its share out a second time, so the reading
 * is done again when one of those links' figures changed meanwhile.
 */
export async function readStats(store: Store, options: ReadStatsOptions): Promise<Stats> {
  for (let read = 1;; read++) {
    const now = store.now();
    const gone = await readGoneShares(store, now);
    const stats = await readStatsWithout(store, gone, now, options);
    if (read === MAX_READS || !(await anyRetired(store, gone))) return stats;
  }
}

/** Whether any of the gone links' figures changed (were retired) since they were read. */
async function anyRetired(store: Store, gone: GoneShares): Promise<boolean> {
  if (gone.ids.size === 0) return false;
  const now = await getManyChunked(store.kv, [...gone.ids].map(linkStatsKey));
  return now.some((entry, i) => entry.versionstamp !== gone.versionstamps[i]);
}

async function readStatsWithout(
  store: Store,
  gone: GoneShares,
  now: number,
  options: ReadStatsOptions,
): Promise<Stats> {
  const less = (kind: string, name = "") => gone.shares.get(tallyNameKey(kind, name)) ?? 0n;
  const dates = Array.from({ length: 7 }, (_, i) => dayOf(now - (6 - i) * DAY_MS));
  const keys = [
    tallyKey(LINK_TALLY, ""),
    tallyKey(CLICK_TALLY, ""),
    ...dates.map((date) => tallyKey(DAY_LINK_TALLY, date)),
    ...dates.map((date) => tallyKey(DAY_CLICK_TALLY, date)),
  ];
  const [totals, top, referrers, devices, countries] = await Promise.all([
    store.kv.getMany(keys.slice(0, 9)).then(async (first) => [
      ...first,
      ...await store.kv.getMany(keys.slice(9)),
    ]),
    readTopLinks(store, gone.ids, options.baseUrl),
    readTopNames(store, REFERRER_TALLY, less),
    readTopNames(store, DEVICE_TALLY, less),
    readTopNames(store, COUNTRY_TALLY, less),
  ]);
  const figure = (i: number, kind: string, name = "") =>
    Number(clamp(readCount(totals[i]?.value) - less(kind, name)));
  return {
    links: figure(0, LINK_TALLY),
    clicks: figure(1, CLICK_TALLY),
    days: dates.map((date, i) => ({
      date,
      links: figure(2 + i, DAY_LINK_TALLY, date),
      clicks: figure(9 + i, DAY_CLICK_TALLY, date),
    })),
    top,
    referrers,
    devices,
    countries,
  };
}

/** Links that no longer count (expired, not yet swept): their ids, figures' versions, shares. */
interface GoneShares {
  ids: Set<string>;
  /** The versionstamp of each one's figures as read, in the order of `ids`. */
  versionstamps: (string | null)[];
  /** Their shares summed, by kind and name. */
  shares: Map<string, bigint>;
}

/** The shares of links that no longer count: expired and not yet swept. */
async function readGoneShares(store: Store, now: number): Promise<GoneShares> {
  const ids = new Set<string>();
  const expired = { prefix: linksByExpiryPrefix(), end: [...linksByExpiryPrefix(), now + 1] };
  for await (const entry of store.kv.list<string>(expired)) ids.add(entry.value);
  const shares = new Map<string, bigint>();
  const figures = await getManyChunked(store.kv, [...ids].map(linkStatsKey));
  for (const entry of figures) {
    for (const [kind, name, count] of eachShare(readLinkStats(entry.value))) {
      const key = tallyNameKey(kind, name);
      shares.set(key, (shares.get(key) ?? 0n) + BigInt(count));
    }
  }
  return { ids, versionstamps: figures.map((entry) => entry.versionstamp), shares };
}

async function readTopLinks(
  store: Store,
  gone: Set<string>,
  baseUrl: string,
): Promise<StatsTopLink[]> {
  const top: StatsTopLink[] = [];
  const ranks = store.kv.list<{ slug: string; title: string }>(
    { prefix: linkRanksPrefix() },
    { reverse: true, batchSize: Math.min(MAX_LIST_BATCH, TOP_LINKS + gone.size + 1) },
  );
  const ids: string[] = [];
  for await (const entry of ranks) {
    const id = String(entry.key[2]);
    if (gone.has(id)) continue;
    const { slug, title } = entry.value;
    top.push({ slug, shortUrl: shortUrlOf(slug, baseUrl), title, clicks: Number(entry.key[1]) });
    ids.push(id);
    if (top.length === TOP_LINKS) break;
  }
  // The order is the figures' (STATS_LAG_SECONDS behind at most); each link's clicks are read
  // as a link's are, 2 s behind at most, and the few found are shown in their order.
  const figures = await readLinkFigures(store, ids);
  top.forEach((link, i) => {
    link.clicks = Math.max(link.clicks, figures[i]?.clicks ?? 0);
  });
  return top.sort((a, b) => b.clicks - a.clicks);
}

/**
 * The names of `kind` with the most clicks once gone links are taken out. Names are read in order
 * of their stored count, which only overstates, until the best {@linkcode TOP_NAMES} corrected
 * counts beat every count not yet read; a name read twice counts once. A name a stopped process
 * left unplaced stays low until the hourly `repairRanks`.
 */
async function readTopNames(
  store: Store,
  kind: string,
  less: (kind: string, name: string) => bigint,
): Promise<StatsCount[]> {
  const found: { name: string; count: bigint }[] = [];
  // The best TOP_NAMES counts found so far, highest first: once that many are found, a name
  // stored under less than the last can no longer be among them (ties are read on, for names).
  const best: bigint[] = [];
  const seen = new Set<string>();
  const ranks = store.kv.list({ prefix: tallyRanksPrefix(kind) }, { reverse: true, batchSize: 50 });
  for await (const entry of ranks) {
    const stored = entry.key[2] as bigint;
    if (best.length >= TOP_NAMES && best[TOP_NAMES - 1]! > stored) break;
    const name = String(entry.key[3]);
    if (seen.has(name)) continue;
    seen.add(name);
    const count = clamp(stored - less(kind, name));
    if (count === 0n) continue;
    found.push({ name, count });
    keepBest(best, count);
  }
  return found
    .sort((a, b) => descending(a.count, b.count) || a.name.localeCompare(b.name))
    .slice(0, TOP_NAMES)
    .map(({ name, count }) => ({ name, clicks: Number(count) }));
}

// Puts `count` in its place in `best` (highest first), keeping at most TOP_NAMES.
function keepBest(best: bigint[], count: bigint): void {
  if (best.length >= TOP_NAMES && best[TOP_NAMES - 1]! >= count) return;
  let at = best.length;
  while (at > 0 && best[at - 1]! < count) at--;
  best.splice(at, 0, count);
  if (best.length > TOP_NAMES) best.pop();
}

function descending(a: bigint, b: bigint): number {
  return a > b ? -1 : a < b ? 1 : 0;
}

function clamp(value: bigint): bigint {
  return value < 0n ? 0n : value;
}
