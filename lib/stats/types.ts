/**
 * The shape of the service-wide stats, as `/api/stats` answers them.
 * @module
 */

/** One UTC day of the last seven. */
export interface StatsDay {
  /** `YYYY-MM-DD`. */
  date: string;
  /** Live links made that day. */
  links: number;
  /** Clicks that day on live links. */
  clicks: number;
}

/** One of the most-clicked live links. */
export interface StatsTopLink {
  slug: string;
  shortUrl: string;
  title: string;
  clicks: number;
}

/** One name of a breakdown (a referring host, a device class, a country) and its count. */
export interface StatsCount {
  name: string;
  clicks: number;
}

/** Service-wide figures over live links only. */
export interface Stats {
  /** Live links. */
  links: number;
  /** Clicks by people on live links. */
  clicks: number;
  /** The last seven UTC days, oldest first. */
  days: StatsDay[];
  /** At most ten links, most clicked first. */
  top: StatsTopLink[];
  /** Referring hosts, or `direct`, most first. */
  referrers: StatsCount[];
  /** `desktop`, `mobile`, `tablet`, `bot`, `other`, most first; bots count only here. */
  devices: StatsCount[];
  /** ISO 3166 alpha-2 codes, or `unknown`, most first. */
  countries: StatsCount[];
}
