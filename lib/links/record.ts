/**
 * The stored link and the public shapes made from it.
 * @module
 */
import type { LinkListEntry, LinkView, UnshortenView } from "./views.ts";
import { destinationHost } from "./destination.ts";
import { DAY_MS } from "../tallies/kinds.ts";

/** A link as stored under its slug (and copied into the creation-order index). */
export interface LinkRecord {
  /** ULID of this link; a slug claimed again gets a new one. */
  id: string;
  /** The short name. */
  slug: string;
  /** The destination, normalized. */
  url: string;
  /** Optional title; `""` when none. */
  title: string;
  /** Optional note; `""` when none. */
  note: string;
  /** Self-describing password hash, or `null` for an open link. */
  passHash: string | null;
  /** When the link was made (epoch ms). */
  createdAt: number;
  /** Deadline (epoch ms); `null` only for legacy records not yet stamped. */
  expiresAt: number | null;
  /** Most visits by people, 1 to 10,000; absent for a link without a limit. */
  maxVisits?: number;
}

/** A record that has its deadline. */
export type DatedLinkRecord = LinkRecord & { expiresAt: number };

/** A link's click figures. */
export interface LinkCounters {
  /** Clicks by people (bots excluded). */
  clicks: number;
  /** Last click (epoch ms), or `null` before the first. */
  lastUsedAt: number | null;
}

/** A link's click figures and, when it has a limit, the visits it has left. */
export interface LinkUsage extends LinkCounters {
  /** Visits by people it has left; `null` for a link without a limit. */
  visitsLeft: number | null;
}

/** What a reader may see of a link: `unlocked` is true when it may see a protected destination. */
export interface ViewOptions {
  /** Public origin, for `shortUrl`. */
  baseUrl: string;
  /** Current time (epoch ms). */
  now: number;
  /** Whether the reader holds the unlock cookie of this link. */
  unlocked?: boolean;
}

/** Whole days left before `expiresAt`, rounded up; 0 once it has passed. */
export function expiresInDays(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / DAY_MS));
}

/** Whether the record's deadline has passed at `now`. */
export function isExpired(record: LinkRecord, now: number): boolean {
  return record.expiresAt !== null && record.expiresAt <= now;
}

/** The short URL of `slug`. */
export function shortUrlOf(slug: string, baseUrl: string): string {
  return `${baseUrl}/${slug}`;
}

/** Whether the link opens only a limited number of times, and so never from a cache. */
export function hasVisitLimit(record: LinkRecord): boolean {
  return record.maxVisits !== undefined;
}

/** The limit as the API answers it: `null` for none. */
export function maxVisitsOf(record: LinkRecord): number | null {
  return record.maxVisits ?? null;
}

/**
 * The destination a reader may see: never a limited link's, which only opening it shows (for
 * everyone, cookies or not), and a protected link's only with its unlock cookie (`unlocked`).
 */
export function visibleUrl(record: LinkRecord, unlocked = false): string | null {
  if (hasVisitLimit(record)) return null;
  return record.passHash === null || unlocked ? record.url : null;
}

/** The create and bulk shape of a dated record, as it is made. */
export function toLinkView(record: DatedLinkRecord, options: ViewOptions): LinkView {
  return {
    slug: record.slug,
    shortUrl: shortUrlOf(record.slug, options.baseUrl),
    url: visibleUrl(record, options.unlocked),
    title: record.title,
    protected: record.passHash !== null,
    expiresInDays: expiresInDays(record.expiresAt, options.now),
    expiresAt: new Date(record.expiresAt).toISOString(),
    maxVisits: maxVisitsOf(record),
    // A link as made: every visit is left.
    visitsLeft: maxVisitsOf(record),
  };
}

/** The list and JSON-export shape of a dated record with its counters. */
export function toListEntry(
  record: DatedLinkRecord,
  counters: LinkUsage,
  options: ViewOptions,
): LinkListEntry {
  const url = visibleUrl(record, options.unlocked);
  return {
    slug: record.slug,
    shortUrl: shortUrlOf(record.slug, options.baseUrl),
    url,
    host: url === null ? null : destinationHost(url),
    title: record.title,
    note: record.note,
    clicks: counters.clicks,
    protected: record.passHash !== null,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUsedAt: counters.lastUsedAt === null ? null : new Date(counters.lastUsedAt).toISOString(),
    expiresAt: new Date(record.expiresAt).toISOString(),
    expiresInDays: expiresInDays(record.expiresAt, options.now),
    maxVisits: maxVisitsOf(record),
    visitsLeft: counters.visitsLeft,
  };
}

/** The unshorten shape of a dated record with its counters. */
export function toUnshortenView(
  record: DatedLinkRecord,
  counters: LinkUsage,
  options: ViewOptions,
): UnshortenView {
  return {
    slug: record.slug,
    shortUrl: shortUrlOf(record.slug, options.baseUrl),
    url: visibleUrl(record, options.unlocked),
    protected: record.passHash !== null,
    clicks: counters.clicks,
    createdAt: new Date(record.createdAt).toISOString(),
    expiresAt: new Date(record.expiresAt).toISOString(),
    expiresInDays: expiresInDays(record.expiresAt, options.now),
    maxVisits: maxVisitsOf(record),
    visitsLeft: counters.visitsLeft,
  };
}
