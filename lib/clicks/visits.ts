/**
 * A link's visits as a flush takes them, and what they add to its figures.
 * @module
 */

/**
 * A link's visits in the order they came, {@linkcode VISIT_STRIDE} entries each: its device
 * class, referring host and country, the last two empty for a bot. A list, not counts: pushing
 * three names costs a visit less than counting them in maps made anew for each link each
 * second, which were most of what the old generation collected (docs/benchmarks.md).
 */
export type VisitList = string[];

/** Entries a visit takes in a {@linkcode VisitList}. */
export const VISIT_STRIDE = 3;

/** A link, and the visits counted of it: by people (clicks) and by bots, and the last click. */
export interface CountedLink {
  slug: string;
  id: string;
  title: string;
  /** Clicks by people. */
  clicks: number;
  /** Visits by bots, which are no clicks. */
  bots: number;
  /** Time of the last click by a person (epoch ms), 0 when none. */
  lastUsedAt: number;
}

/** One link's visits of one flush, classified. */
export interface LinkVisits extends CountedLink {
  /** UTC day of the visits. */
  day: string;
  /** Each visit as recorded (see {@linkcode VisitList}). */
  visits: VisitList;
  /**
   * The number of the last commit that carried these clicks and whose outcome is unknown;
   * absent when none was. It is not written again when the sequence finds it landed.
   */
  uncertainAt?: number;
}

/** What a flush wrote. */
export interface FlushOutcome {
  /** Clicks by people written. */
  clicks: number;
  /** Bot visits written. */
  bots: number;
  /** Visits dropped: their link was gone by then, or its figures too large to write. */
  dropped: number;
}

/** Names and their counts in turn: a name, its count, the next name, its count... */
export type Counts = (string | number)[];

/** What a link's visits add to its figures, counted by name. */
export interface LinkDeltas extends CountedLink {
  /** Clicks by people per UTC day. */
  days: Counts;
  referrers: Counts;
  /** Visits per device class, bots included. */
  devices: Counts;
  countries: Counts;
}

// Counting maps used link after link, so a link's deltas take no map of their own.
const devicesSeen = new Map<string, number>();
const referrersSeen = new Map<string, number>();
const countriesSeen = new Map<string, number>();

/** The visits of `link` counted by name. */
export function deltasOf(link: LinkVisits): LinkDeltas {
  const deltas: LinkDeltas = {
    slug: link.slug,
    id: link.id,
    title: link.title,
    clicks: link.clicks,
    bots: link.bots,
    lastUsedAt: link.lastUsedAt,
    days: link.clicks > 0 ? [link.day, link.clicks] : [],
    referrers: [],
    devices: [],
    countries: [],
  };
  const visits = link.visits;
  if (visits.length === VISIT_STRIDE) {
    // One visit, the most common case in a second: its names are its counts.
    deltas.devices = [visits[0]!, 1];
    if (visits[0] !== "bot") {
      [deltas.referrers, deltas.countries] = [[visits[1]!, 1], [visits[2]!, 1]];
    }
    return deltas;
  }
  devicesSeen.clear();
  referrersSeen.clear();
  countriesSeen.clear();
  for (let i = 0; i < visits.length; i += VISIT_STRIDE) {
    const device = visits[i]!;
    countUnder(devicesSeen, device, 1);
    if (device === "bot") continue;
    countUnder(referrersSeen, visits[i + 1]!, 1);
    countUnder(countriesSeen, visits[i + 2]!, 1);
  }
  deltas.devices = countsOf(devicesSeen);
  deltas.referrers = countsOf(referrersSeen);
  deltas.countries = countsOf(countriesSeen);
  return deltas;
}

/** `counts` as {@linkcode Counts}. */
export function countsOf(counts: Map<string, number>): Counts {
  const out: Counts = [];
  for (const [name, count] of counts) out.push(name, count);
  return out;
}

/** Adds `count` under `name`; whether the name is new. */
export function countUnder(counts: Map<string, number>, name: string, count: number): boolean {
  const had = counts.get(name);
  counts.set(name, (had ?? 0) + count);
  return had === undefined;
}

/** Every visit counted, by people and bots. */
export function visitsOf(counted: CountedLink): number {
  return counted.clicks + counted.bots;
}
