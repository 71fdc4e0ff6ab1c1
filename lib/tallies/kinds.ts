/**
 * The kinds of tallies. Every figure in the stats is the sum of the live links' shares; a link
 * keeps its own share of each, so taking it away when the link goes is exact.
 * @module
 */

/** Live links: each link's share is 1. */
export const LINK_TALLY = "links";
/** Clicks by people. */
export const CLICK_TALLY = "clicks";
/** Links made on a UTC day; the name is the date. */
export const DAY_LINK_TALLY = "day_links";
/** Clicks on a UTC day; the name is the date. */
export const DAY_CLICK_TALLY = "day_clicks";
/** Clicks by referring host, or `direct`. */
export const REFERRER_TALLY = "referrers";
/** Visits by device class; bots count only here. */
export const DEVICE_TALLY = "devices";
/** Clicks by country code, or `unknown`. */
export const COUNTRY_TALLY = "countries";

/** Kinds whose names are kept in order of count, so the most frequent are read without a scan. */
export const RANKED_KINDS: ReadonlySet<string> = new Set([
  REFERRER_TALLY,
  DEVICE_TALLY,
  COUNTRY_TALLY,
]);

/** A day in milliseconds. */
export const DAY_MS = 86_400_000;

/** The UTC date `YYYY-MM-DD` of `time` (epoch ms). */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** One string for a tally's name of a kind, to gather names without repeats. */
export function tallyNameKey(kind: string, name: string): string {
  return `${kind}\u0000${name}`;
}
