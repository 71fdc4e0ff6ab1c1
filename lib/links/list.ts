/**
 * Listing live links newest first, streamed from a store cursor.
 * @module
 */
import { linksByCreatedPrefix } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { lookupLink, readCounters } from "./read.ts";
import { readVisitsLeft } from "./visits.ts";
import {
  type DatedLinkRecord,
  isExpired,
  type LinkRecord,
  type LinkUsage,
  toListEntry,
} from "./record.ts";
import type { LinkListEntry } from "./views.ts";

/** A live link with its click figures. */
export interface LinkWithCounters {
  record: DatedLinkRecord;
  counters: LinkUsage;
}

// Records are read a page at a time; their counters in one round of parallel reads per page.
const PAGE = 100;

/** Options of {@linkcode listLinks}. */
export interface ListLinksOptions {
  /** Only links made before the link with this id (a cursor); default from the newest. */
  before?: string;
}

/**
 * Yields every live link, newest first, with its clicks and last use. Memory stays at one page
 * whatever the number of links; expired links are skipped and legacy ones get their deadline.
 */
export async function* listLinks(
  store: Store,
  options: ListLinksOptions = {},
): AsyncGenerator<LinkWithCounters> {
  let page: DatedLinkRecord[] = [];
  const prefix = linksByCreatedPrefix();
  const selector = options.before === undefined
    ? { prefix }
    : { prefix, end: [...prefix, options.before] };
  const entries = store.kv.list<LinkRecord>(selector, { reverse: true, batchSize: PAGE });
  for await (const entry of entries) {
    const record = entry.value.expiresAt === null
      ? await stampFromIndex(store, entry.value)
      : entry.value as DatedLinkRecord;
    if (record === null || isExpired(record, store.now())) continue;
    page.push(record);
    if (page.length === PAGE) {
      yield* withCounters(store, page);
      page = [];
    }
  }
  yield* withCounters(store, page);
}

/**
 * The text a link is found by: slug, title, destination (of an open link only, as it is shown)
 * and note, lower case.
 */
export function searchTextOf(entry: LinkListEntry): string {
  return [entry.slug, entry.title, entry.url ?? "", entry.note].join(" ").toLowerCase();
}

/** Ids are ULIDs: a cursor is one, 26 characters of Crockford's base 32. */
const CURSOR_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Whether `value` can be a cursor of {@linkcode findLinkPage}. */
export function isLinkCursor(value: string): boolean {
  return CURSOR_PATTERN.test(value);
}

/** Options of {@linkcode findLinkPage}. */
export interface FindPageOptions extends ListEntriesOptions {
  /** What the links' search text must hold, in any case; `""` for every link. */
  query: string;
  /** Most entries on the page. */
  limit: number;
  /** Where the page starts: the `next` of the page before; absent for the newest. */
  cursor?: string;
}

/** One page of links, and the cursor of the next, `null` when no link matched after it. */
export interface LinkPage {
  entries: LinkListEntry[];
  next: string | null;
}

/**
 * A page of the live links whose search text holds the query, newest first: at most `limit`,
 * from the cursor on. Its `next` is the last entry's id when another link matches after it, so
 * paging walks every link once, whatever is made or deleted meanwhile.
 */
export async function findLinkPage(store: Store, options: FindPageOptions): Promise<LinkPage> {
  const needle = options.query.toLowerCase();
  const entries: LinkListEntry[] = [];
  let last: string | null = null;
  for await (const { record, counters } of listLinks(store, { before: options.cursor })) {
    const entry = toListEntry(record, counters, {
      baseUrl: options.baseUrl,
      now: store.now(),
      unlocked: options.unlocked?.(record) ?? false,
    });
    if (needle && !searchTextOf(entry).includes(needle)) continue;
    if (entries.length === options.limit) return { entries, next: last };
    entries.push(entry);
    last = record.id;
  }
  return { entries, next: null };
}

/** Options of {@linkcode listLinkEntries}. */
export interface ListEntriesOptions {
  /** Public origin, for short URLs. */
  baseUrl: string;
  /** Whether the reader has unlocked this protected link; default never. */
  unlocked?: (record: LinkRecord) => boolean;
}

/** Every live link as a list entry, newest first. */
export async function* listLinkEntries(
  store: Store,
  options: ListEntriesOptions,
): AsyncGenerator<LinkListEntry> {
  for await (const { record, counters } of listLinks(store)) {
    yield toListEntry(record, counters, {
      baseUrl: options.baseUrl,
      now: store.now(),
      unlocked: options.unlocked?.(record) ?? false,
    });
  }
}

async function* withCounters(
  store: Store,
  records: DatedLinkRecord[],
): AsyncGenerator<LinkWithCounters> {
  if (records.length === 0) return;
  const [counters, visitsLeft] = await Promise.all([
    readCounters(store, records.map((record) => record.id)),
    readVisitsLeft(store, records),
  ]);
  for (let i = 0; i < records.length; i++) {
    yield { record: records[i]!, counters: { ...counters[i]!, visitsLeft: visitsLeft[i]! } };
  }
}

// The index holds a copy; the record under the slug is the one to stamp.
async function stampFromIndex(store: Store, copy: LinkRecord): Promise<DatedLinkRecord | null> {
  const found = await lookupLink(store, copy.slug);
  return found.status !== "missing" && found.record.id === copy.id ? found.record : null;
}
