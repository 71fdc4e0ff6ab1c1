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
  type LinkFigures,
  type LinkListEntry,
  type LinkRecord,
  toListEntry,
} from "./record.ts";

/** A live link with its click figures. */
export interface LinkWithCounters {
  record: DatedLinkRecord;
  counters: LinkFigures;
}

// Records are read a page at a time; their counters in one round of parallel reads per page.
const PAGE = 100;

/**
 * Yields every live link, newest first, with its counters. Memory stays at one page whatever
 * the number of links; expired links are skipped and legacy ones get their deadline.
 */
export async function* listLinks(store: Store): AsyncGenerator<LinkWithCounters> {
  let page: DatedLinkRecord[] = [];
  const entries = store.kv.list<LinkRecord>(
    { prefix: linksByCreatedPrefix() },
    { reverse: true, batchSize: PAGE },
  );
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

/** Options of {@linkcode findLinkEntries}. */
export interface FindEntriesOptions extends ListEntriesOptions {
  /** What the links' search text must hold, in any case; `""` for every link. */
  query: string;
  /** Most entries to give. */
  max: number;
}

/**
 * The live links whose search text holds the query, newest first, at most `max` of them, and
 * whether more matched.
 */
export async function findLinkEntries(
  store: Store,
  options: FindEntriesOptions,
): Promise<{ entries: LinkListEntry[]; truncated: boolean }> {
  const needle = options.query.toLowerCase();
  const entries: LinkListEntry[] = [];
  for await (const entry of listLinkEntries(store, options)) {
    if (needle && !searchTextOf(entry).includes(needle)) continue;
    if (entries.length === options.max) return { entries, truncated: true };
    entries.push(entry);
  }
  return { entries, truncated: false };
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
