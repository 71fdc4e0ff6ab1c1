/**
 * One link's figures: its clicks, last use, the last seven days and its breakdowns, read with
 * a bounded number of store reads (the link under its slug, then its figures: see
 * `lib/tallies/link_figures.ts`), whatever the store holds. `/api/stats?slug=` and the per-link
 * page both read through {@linkcode readLinkFigures}.
 * @module
 */
import type { Store } from "../kv/store.ts";
import { lookupLink } from "../links/read.ts";
import { expiresInDays, isExpired, shortUrlOf } from "../links/record.ts";
import { DAY_MS, dayOf } from "../tallies/kinds.ts";
import { readOneLinkFigures } from "../tallies/link_figures.ts";
import { TOP_NAMES } from "./read.ts";
import type { StatsCount } from "./types.ts";

/** One UTC day of a link's last seven. */
export interface LinkDay {
  /** `YYYY-MM-DD`. */
  date: string;
  /** Clicks by people that day. */
  clicks: number;
}

/** One live link's figures, times in epoch milliseconds. Never its destination. */
export interface LinkStatsReport {
  slug: string;
  /** The link's title; `""` when none. */
  title: string;
  /** Whether a password guards the redirect (the figures are shown all the same). */
  protected: boolean;
  /** When the link was made. */
  createdAt: number;
  /** Its deadline. */
  expiresAt: number;
  /** Clicks by people (bots are not counted). */
  clicks: number;
  /** The last click by a person, or `null` before the first. */
  lastUsedAt: number | null;
  /** The last seven UTC days up to `now`'s, oldest first. */
  days: LinkDay[];
  /** Referring hosts, or `direct` (and `other` past the hosts a link keeps), most first. */
  referrers: StatsCount[];
  /** Visits by device class, most first; bots count only here, under `bot`. */
  devices: StatsCount[];
  /** Clicks by ISO 3166 alpha-2 code, or `unknown`, most first. */
  countries: StatsCount[];
}

/** What {@linkcode readLinkFigures} finds under a slug. */
export type LinkFiguresLookup =
  | { status: "live"; figures: LinkStatsReport }
  | { status: "expired"; slug: string; expiresAt: number }
  | { status: "missing" };

/**
 * The figures of the live link under `slug` at `now` (default the store's clock): `expired` with
 * its deadline until swept, `missing` when no link has the slug. Two store reads (three for a
 * legacy record), each breakdown at most {@linkcode TOP_NAMES} names. `clicks` lags a visit by
 * 2 s at most, the rest by `STATS_LAG_SECONDS`.
 */
export async function readLinkFigures(
  store: Store,
  slug: string,
  now: number = store.now(),
): Promise<LinkFiguresLookup> {
  const found = await lookupLink(store, slug);
  if (found.status === "missing") return { status: "missing" };
  const { record } = found;
  if (isExpired(record, now)) {
    return { status: "expired", slug: record.slug, expiresAt: record.expiresAt };
  }
  const stored = await readOneLinkFigures(store, record.id);
  return {
    status: "live",
    figures: {
      slug: record.slug,
      title: record.title,
      protected: record.passHash !== null,
      createdAt: record.createdAt,
      expiresAt: record.expiresAt,
      clicks: stored?.clicks ?? 0,
      lastUsedAt: stored?.lastUsedAt ?? null,
      days: Array.from({ length: 7 }, (_, i) => {
        const date = dayOf(now - (6 - i) * DAY_MS);
        return { date, clicks: stored?.days[date] ?? 0 };
      }),
      referrers: namesOf(stored?.referrers),
      devices: namesOf(stored?.devices),
      countries: namesOf(stored?.countries),
    },
  };
}

/** Names with their counts, most first, then by name; at most TOP_NAMES. */
function namesOf(counts: Record<string, number> = {}): StatsCount[] {
  return Object.entries(counts)
    .filter(([, clicks]) => clicks > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, TOP_NAMES)
    .map(([name, clicks]) => ({ name, clicks }));
}

/** One link's figures as `GET /api/stats?slug=` answers them (see `linkStats` in `schema.ts`). */
export interface LinkStatsView {
  slug: string;
  shortUrl: string;
  clicks: number;
  lastUsedAt: string | null;
  createdAt: string;
  expiresAt: string;
  expiresInDays: number;
  days: LinkDay[];
  referrers: StatsCount[];
  devices: StatsCount[];
  countries: StatsCount[];
}

/** Options of {@linkcode toLinkStatsView}. */
export interface LinkStatsViewOptions {
  /** Public origin, for `shortUrl`. */
  baseUrl: string;
  /** Current time (epoch ms), for `expiresInDays`. */
  now: number;
}

/** The answer of `GET /api/stats?slug=`: times as ISO 8601 UTC, no title, no destination. */
export function toLinkStatsView(
  figures: LinkStatsReport,
  options: LinkStatsViewOptions,
): LinkStatsView {
  const iso = (time: number) => new Date(time).toISOString();
  return {
    slug: figures.slug,
    shortUrl: shortUrlOf(figures.slug, options.baseUrl),
    clicks: figures.clicks,
    lastUsedAt: figures.lastUsedAt === null ? null : iso(figures.lastUsedAt),
    createdAt: iso(figures.createdAt),
    expiresAt: iso(figures.expiresAt),
    expiresInDays: expiresInDays(figures.expiresAt, options.now),
    days: figures.days,
    referrers: figures.referrers,
    devices: figures.devices,
    countries: figures.countries,
  };
}
