/**
 * Service-wide stats: the entry point of the stats module.
 *
 * Placeholder until the click analytics land: it reports the live links and zeros elsewhere, in
 * the shape `/api/stats` and the stats page share.
 * @module
 */
import { tallyKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { readCount } from "../tallies/count.ts";
import { dayOf, LINKS } from "../tallies/kinds.ts";
import type { Stats } from "./types.ts";

export type { Stats, StatsCount, StatsDay, StatsTopLink } from "./types.ts";

const DAY_MS = 24 * 3600 * 1000;

/** The stats over live links. */
export async function readStats(store: Store): Promise<Stats> {
  const links = Number(readCount((await store.kv.get(tallyKey(LINKS, ""))).value));
  const today = store.now();
  const days = Array.from({ length: 7 }, (_, i) => ({
    date: dayOf(today - (6 - i) * DAY_MS),
    links: 0,
    clicks: 0,
  }));
  return { links, clicks: 0, days, top: [], referrers: [], devices: [], countries: [] };
}
