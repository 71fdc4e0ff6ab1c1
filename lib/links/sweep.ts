/**
 * The sweep: removes expired links with all their figures, in bounded batches.
 * @module
 */
import type { z } from "zod";
import {
  cacheEpochKey,
  linkByCreatedKey,
  linkKey,
  linksByExpiryPrefix,
  retiringLinkKey,
  retiringLinksPrefix,
} from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { drainRetiredLink } from "../tallies/drain.ts";
import type { LinkRecord } from "./record.ts";
import { retireLink } from "./remove.ts";
import type { Metrics } from "../metrics/mod.ts";
import type { RetiringLink } from "./write.ts";
import type { expiredLink, expiredListing, sweepReport } from "./views.ts";

/** One link the sweep would remove. */
export type ExpiredLink = z.infer<typeof expiredLink>;

/** What {@linkcode listExpiredLinks} found. */
export type ExpiredListing = z.infer<typeof expiredListing>;

/** What a sweep did. */
export type SweepReport = z.infer<typeof sweepReport>;

/** Options of the sweep functions. */
export interface SweepOptions {
  /** Most entries listed in a report; default 1,000. */
  limit?: number;
  /** Expired links handled per batch; default 100. */
  batchSize?: number;
  /** Where a finished sweep counts itself and the links it removed; default nowhere. */
  metrics?: Pick<Metrics, "sweepRuns" | "sweptLinks">;
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
 * stays flat; then finishes retirements a crash may have left half done.
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
    for (const entry of batch) {
      if (await sweepOne(store, entry)) {
        report.swept++;
        if (report.slugs.length < limit) report.slugs.push(String(entry.key[2]));
      }
    }
  }
  await finishRetirements(store);
  options.metrics?.sweepRuns.inc();
  options.metrics?.sweptLinks.inc(report.swept);
  return report;
}

/** Drains the figures of links whose retirement was interrupted. */
export async function finishRetirements(store: Store): Promise<number> {
  let finished = 0;
  for await (const entry of store.kv.list<RetiringLink>({ prefix: retiringLinksPrefix() })) {
    await drainRetiredLink(store, entry.value.id);
    finished++;
  }
  return finished;
}

function expiredSelector(now: number): Deno.KvListSelector {
  return { prefix: linksByExpiryPrefix(), end: [...linksByExpiryPrefix(), now + 1] };
}

async function sweepOne(store: Store, entry: Deno.KvEntry<string>): Promise<boolean> {
  const slug = String(entry.key[2]);
  const id = entry.value;
  const found = await store.kv.get<LinkRecord>(linkKey(slug));
  if (found.value !== null && found.value.id === id) {
    return await retireLink(store, found.value, found.versionstamp);
  }
  // The record is gone (the store dropped it a day past its deadline) or its slug now belongs
  // to a newer link: retire what is left of the old one without touching the slug.
  const mark: RetiringLink = { id, slug };
  const atomic = store.kv.atomic()
    .check(entry)
    .delete(entry.key)
    .delete(linkByCreatedKey(id))
    .set(retiringLinkKey(id), mark)
    .sum(cacheEpochKey(), 1n);
  const result = await retryLocked(() => atomic.commit());
  if (result.ok) await drainRetiredLink(store, id);
  return result.ok;
}
