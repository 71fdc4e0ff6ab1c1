/**
 * The sweep: removes expired links with all their figures, in bounded batches.
 * @module
 */
import type { z } from "zod";
import { getManyChunked } from "../kv/get_many.ts";
import { linkKey, linksByExpiryPrefix } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { stampUndatedLinks } from "./legacy.ts";
import type { LinkRecord } from "./record.ts";
import { retireLinks, type RetirementTarget, type RetireOptions } from "./retire.ts";
import type { expiredLink, expiredListing, sweepReport } from "./views.ts";

/** One link the sweep would remove. */
export type ExpiredLink = z.infer<typeof expiredLink>;

/** What {@linkcode listExpiredLinks} found. */
export type ExpiredListing = z.infer<typeof expiredListing>;

/** What a sweep did. */
export type SweepReport = z.infer<typeof sweepReport>;

/** Options of the sweep functions; `cache` forgets each link swept. */
export interface SweepOptions extends RetireOptions {
  /** Most entries listed in a report; default 1,000. */
  limit?: number;
  /** Expired links handled per batch; default 100. */
  batchSize?: number;
  /** Told, when a sweep finishes, how many links it removed; the edge counts it. */
  onSwept?: (swept: number) => void;
}

/** Lists the links whose deadline has passed and that the sweep would remove. */
export async function listExpiredLinks(
  store: Store,
  options: SweepOptions = {},
): Promise<ExpiredListing> {
  const limit = options.limit ?? 1000;
  const listing: ExpiredListing = { expired: [], count: 0 };
  for await (const entry of store.kv.list(expiredSelector(store.now()))) {
    listing.count++;
    if (listing.expired.length < limit) {
      listing.expired.push({
        slug: String(entry.key[2]),
        expiresAt: new Date(Number(entry.key[1])).toISOString(),
      });
    }
  }
  return listing;
}

/**
 * Removes every link whose deadline has passed, with its figures, a batch at a time so memory
 * stays flat, many links to a commit.
 */
export async function sweepExpiredLinks(
  store: Store,
  options: SweepOptions = {},
): Promise<SweepReport> {
  const limit = options.limit ?? 1000;
  const batchSize = options.batchSize ?? 100;
  const report: SweepReport = { swept: 0, slugs: [] };
  for (;;) {
    const batch: Deno.KvEntry<string>[] = [];
    const selector = expiredSelector(store.now());
    for await (const entry of store.kv.list<string>(selector, { limit: batchSize })) {
      batch.push(entry);
    }
    if (batch.length === 0) break;
    const records = await getManyChunked(
      store.kv,
      batch.map((entry) => linkKey(String(entry.key[2]))),
    );
    const targets = batch.map((entry, i): RetirementTarget => {
      const link = { id: entry.value, slug: String(entry.key[2]), expiresAt: Number(entry.key[1]) };
      const record = records[i]!;
      // The record may be gone (the store drops it a day past its deadline) or belong to a
      // newer link of the same slug: then what is left of the old one goes, and the slug stays.
      const current = (record.value as LinkRecord | null)?.id === link.id;
      return current ? { link, proof: record } : { link, proof: entry, keepRecord: true };
    });
    for (const { link } of await retireLinks(store, targets, options)) {
      report.swept++;
      if (report.slugs.length < limit) report.slugs.push(link.slug);
    }
  }
  options.onSwept?.(report.swept);
  return report;
}

function expiredSelector(now: number): Deno.KvListSelector {
  return { prefix: linksByExpiryPrefix(), end: [...linksByExpiryPrefix(), now + 1] };
}

/**
 * The whole sweep, as the hourly job, `POST /api/sweep` and `deno task sweep` run it: gives
 * undated legacy links their deadline, then removes every expired link. Says how many were
 * dated as `stamped`.
 */
export async function runSweep(
  store: Store,
  options: SweepOptions = {},
): Promise<SweepReport & { stamped: number }> {
  const stamped = await stampUndatedLinks(store);
  return { stamped, ...await sweepExpiredLinks(store, options) };
}
