/**
 * One link's figures as the store keeps them, read with a bounded number of reads: its clicks
 * from its counter, everything else from its figures record; two keys a link, one read for up
 * to five hundred links.
 * @module
 */
import { getManyChunked } from "../kv/get_many.ts";
import { linkClicksKey, linkStatsKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { readCount } from "./count.ts";
import { COUNTRY_TALLY, DAY_CLICK_TALLY, DEVICE_TALLY, REFERRER_TALLY } from "./kinds.ts";
import { clicksOf, readLinkStats } from "./shares.ts";

/** One link's figures; names are as the service-wide stats name them. */
export interface StoredLinkFigures {
  /** Clicks by people, bots excluded; lags a visit by 2 s at most. */
  clicks: number;
  /**
   * The last click by a person (epoch ms), or `null` before the first; this and the breakdowns
   * below lag a visit by `STATS_LAG_SECONDS` at most.
   */
  lastUsedAt: number | null;
  /** Clicks by people per UTC date `YYYY-MM-DD` the link was clicked on. */
  days: Record<string, number>;
  /** Clicks by people per referring host, or `direct`, or `other` past 100 hosts. */
  referrers: Record<string, number>;
  /** Visits per device class; bots count only here. */
  devices: Record<string, number>;
  /** Clicks by people per ISO 3166 alpha-2 code, or `unknown`. */
  countries: Record<string, number>;
}

/**
 * The figures of each of `ids`, in order: `null` for a link that has none (gone, or never
 * made). Two store keys a link, read together, so one link costs one read whatever its
 * traffic. This is the one way the service reads a link's own figures (list, export,
 * unshorten, per-link stats).
 */
export async function readLinkFigures(
  store: Store,
  ids: string[],
): Promise<(StoredLinkFigures | null)[]> {
  const keys = ids.flatMap((id) => [linkStatsKey(id), linkClicksKey(id)]);
  const entries = await getManyChunked(store.kv, keys);
  return ids.map((_, i) => {
    const stats = entries[2 * i]!.value;
    return stats === null ? null : linkFiguresOf(stats, entries[2 * i + 1]!.value);
  });
}

/** {@linkcode readLinkFigures} of one link. */
export async function readOneLinkFigures(
  store: Store,
  id: string,
): Promise<StoredLinkFigures | null> {
  return (await readLinkFigures(store, [id]))[0]!;
}

/**
 * A link's figures from its stored figures record and its clicks' counter. The counter runs
 * ahead of the record's clicks by what waits for the slower cadence; a record written with
 * clicks and no counter (an import) reads as its own clicks, so the larger is the count.
 */
export function linkFiguresOf(stats: unknown, counter: unknown): StoredLinkFigures {
  const figures = readLinkStats(stats);
  const counted = Number(readCount(counter));
  const names = (kind: string) => ({ ...figures.shares[kind] });
  return {
    clicks: Math.max(counted, clicksOf(figures)),
    lastUsedAt: figures.lastUsedAt,
    days: names(DAY_CLICK_TALLY),
    referrers: names(REFERRER_TALLY),
    devices: names(DEVICE_TALLY),
    countries: names(COUNTRY_TALLY),
  };
}
