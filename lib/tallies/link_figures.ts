/**
 * One link's figures as the store keeps them, read with one key a link: its figures record,
 * its clicks with those the click journals hold beyond it.
 * @module
 */
import { getManyChunked } from "../kv/get_many.ts";
import { linkStatsKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
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
 * made). One store key a link, read together, so one link costs one read whatever its traffic;
 * its clicks add what the click journals hold beyond its record (`store.journaled`), read
 * meanwhile. A line counts when the record read lacks it, so the two readings' order does not
 * matter. This is the one way the service reads a link's own figures (list, export, unshorten,
 * per-link stats, top).
 */
export async function readLinkFigures(
  store: Store,
  ids: string[],
): Promise<(StoredLinkFigures | null)[]> {
  const journaled = store.journaled;
  const [entries] = await Promise.all([
    getManyChunked(store.kv, ids.map(linkStatsKey)),
    journaled?.fresh(),
  ]);
  return ids.map((id, i) => {
    const stats = entries[i]!.value;
    if (stats === null) return null;
    return linkFiguresOf(stats, (folded) => journaled?.clicksOf(id, folded) ?? 0);
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
 * A link's figures from its stored figures record, its clicks with `journaled`: those committed
 * and not yet in the record, by the record's marks.
 */
export function linkFiguresOf(
  stats: unknown,
  journaled: (folded: Readonly<Record<string, number>>) => number,
): StoredLinkFigures {
  const figures = readLinkStats(stats);
  const names = (kind: string) => ({ ...figures.shares[kind] });
  return {
    clicks: clicksOf(figures) + journaled(figures.folded ?? {}),
    lastUsedAt: figures.lastUsedAt,
    days: names(DAY_CLICK_TALLY),
    referrers: names(REFERRER_TALLY),
    devices: names(DEVICE_TALLY),
    countries: names(COUNTRY_TALLY),
  };
}
