/**
 * Legacy records: links written before timestamping, which have no deadline until first read.
 * @module
 */
import { monotonicFactory } from "ulid";
import { z } from "zod";
import { InvalidInputError } from "../errors.ts";
import {
  linkKey,
  linkRankKey,
  linkStatsKey,
  tallyKey,
  undatedLinkKey,
  undatedLinksPrefix,
} from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { readCount } from "../tallies/count.ts";
import { CLICK_TALLY, LINK_TALLY } from "../tallies/kinds.ts";
import { addShare, newLinkStats } from "../tallies/shares.ts";
import { normalizeDestination } from "./destination.ts";
import { MAX_TITLE_LENGTH } from "./input.ts";
import type { DatedLinkRecord, LinkRecord } from "./record.ts";
import { isReservedSlug, isSlugLike } from "./slug.ts";
import { addLinkWrites } from "./write.ts";

const nextId = monotonicFactory();

/**
 * Gives an undated record its deadline (seven days from now), atomically. Returns the dated
 * record, unchanged when it had one, or `null` when the record changed meanwhile.
 */
export async function stampLegacyLink(
  store: Store,
  record: LinkRecord,
  versionstamp: string,
): Promise<{ record: DatedLinkRecord; versionstamp: string } | null> {
  if (record.expiresAt !== null) return { record: record as DatedLinkRecord, versionstamp };
  const now = store.now();
  const dated: DatedLinkRecord = { ...record, expiresAt: now + store.ttlMs };
  const atomic = store.kv.atomic().check({ key: linkKey(record.slug), versionstamp });
  atomic.delete(undatedLinkKey(record.slug));
  addLinkWrites(atomic, dated, now);
  const result = await retryLocked(() => atomic.commit());
  return result.ok ? { record: dated, versionstamp: result.versionstamp } : null;
}

/** Gives every undated record its deadline; returns how many were stamped. */
export async function stampUndatedLinks(store: Store): Promise<number> {
  let stamped = 0;
  for await (const entry of store.kv.list<string>({ prefix: undatedLinksPrefix() })) {
    const slug = String(entry.key[1]);
    const found = await store.kv.get<LinkRecord>(linkKey(slug));
    if (found.value === null) {
      // A dangling mark: its record is gone.
      await retryLocked(() => store.kv.atomic().check(entry).delete(entry.key).commit());
      continue;
    }
    if (found.value.expiresAt !== null) continue;
    if (await stampLegacyLink(store, found.value, found.versionstamp)) stamped++;
  }
  return stamped;
}

/** One legacy entry as the import file may give it. */
export const legacyEntry = z.union([
  z.string(),
  z.object({ url: z.string(), title: z.string().optional(), clicks: z.unknown().optional() }),
]);

// The most clicks a legacy record brings: a link's figures are JavaScript numbers, and the
// clicks it gets after the import must stay exact (below 2^53) however many they are.
const MAX_LEGACY_CLICKS = 1_000_000_000_000;

/**
 * A legacy record's clicks: a count, also one written as text (`"12"`) or with a fraction (its
 * whole part), up to {@linkcode MAX_LEGACY_CLICKS}; anything else (`"many"`, a negative, a
 * larger number) counts as 0.
 */
function legacyClicks(value: unknown): bigint {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number !== "number") return 0n;
  const whole = Math.floor(number);
  return whole <= MAX_LEGACY_CLICKS ? readCount(whole) : 0n;
}

/** The import file: slugs mapped to a URL or `{url, title?, clicks?}`. */
export const legacyFile = z.record(z.string(), z.unknown());

/** What an import did. */
export interface ImportReport {
  /** Slugs loaded. */
  imported: number;
  /** Entries left out, each with the reason. */
  skipped: { slug: string; reason: string }[];
}

/**
 * Loads legacy records from a parsed import file. Each becomes an undated link (it gets its
 * deadline on first read or at a sweep); a non-numeric click count counts as 0. Entries that
 * are invalid, reserved or already taken are skipped and reported.
 */
export async function importLegacyLinks(
  store: Store,
  data: unknown,
  options: { serviceHost: string },
): Promise<ImportReport> {
  const parsed = legacyFile.safeParse(data);
  if (!parsed.success) {
    throw new InvalidInputError("import file must be a JSON object of slugs");
  }
  const report: ImportReport = { imported: 0, skipped: [] };
  for (const [slug, raw] of Object.entries(parsed.data)) {
    const reason = await importOne(store, slug, raw, options.serviceHost);
    if (reason) report.skipped.push({ slug, reason });
    else report.imported++;
  }
  return report;
}

async function importOne(
  store: Store,
  slug: string,
  raw: unknown,
  serviceHost: string,
): Promise<string | null> {
  if (!isSlugLike(slug)) return "not a valid slug";
  if (isReservedSlug(slug)) return "reserved word";
  const entry = legacyEntry.safeParse(raw);
  if (!entry.success) return "not a URL or {url, title?, clicks?}";
  const given = typeof entry.data === "string" ? { url: entry.data } : entry.data;
  let url: string;
  try {
    url = normalizeDestination(given.url, serviceHost, { strictHost: false });
  } catch (error) {
    return error instanceof Error ? error.message : "invalid url";
  }
  const now = store.now();
  const record: LinkRecord = {
    id: nextId(now),
    slug,
    url,
    title: (given.title ?? "").slice(0, MAX_TITLE_LENGTH),
    note: "",
    passHash: null,
    createdAt: now,
    expiresAt: null,
  };
  const clicks = legacyClicks(given.clicks);
  const atomic = store.kv.atomic().check({ key: linkKey(slug), versionstamp: null });
  addLinkWrites(atomic, record, now);
  // Not made on any day of ours: it counts as a link, with its clicks, but in no day.
  const stats = newLinkStats(null);
  if (clicks > 0n) addShare(stats, CLICK_TALLY, "", Number(clicks));
  atomic
    .set(linkStatsKey(record.id), stats)
    .sum(tallyKey(LINK_TALLY, ""), 1n)
    .sum(tallyKey(CLICK_TALLY, ""), clicks);
  if (clicks > 0n) {
    atomic.set(linkRankKey(clicks, record.id), { slug, title: record.title });
  }
  const result = await retryLocked(() => atomic.commit());
  return result.ok ? null : "slug already taken";
}
