/**
 * Every key the service stores, built by functions; no key literal lives elsewhere.
 *
 * Collections are plural snake_case. Per-link bookkeeping is keyed by the link's id (a ULID),
 * not its slug, so a slug claimed again after expiry never inherits the old link's figures.
 * @module
 */

/** The link record under its slug. */
export function linkKey(slug: string): Deno.KvKey {
  return ["links", slug];
}

/** Creation-order index (ULIDs sort by time); holds a copy of the record. */
export function linkByCreatedKey(id: string): Deno.KvKey {
  return ["links_by_created", id];
}

/** Prefix of the creation-order index. */
export function linksByCreatedPrefix(): Deno.KvKey {
  return ["links_by_created"];
}

/** Expiry-order index entry, walked by the sweep; holds the link's id. */
export function linkByExpiryKey(expiresAt: number, slug: string): Deno.KvKey {
  return ["links_by_expiry", expiresAt, slug];
}

/** Prefix of the expiry-order index. */
export function linksByExpiryPrefix(): Deno.KvKey {
  return ["links_by_expiry"];
}

/** Marks a legacy record that has no deadline yet; holds the link's id. */
export function undatedLinkKey(slug: string): Deno.KvKey {
  return ["links_undated", slug];
}

/** Prefix of the undated-records index. */
export function undatedLinksPrefix(): Deno.KvKey {
  return ["links_undated"];
}

/** A link's own share of every service-wide tally, and its last click, in one record. */
export function linkStatsKey(id: string): Deno.KvKey {
  return ["link_stats", id];
}

/**
 * The visits a limited link has had from people (`Deno.KvU64`), kept apart from its record so
 * that taking a visit is a small checked commit; set when the link is made, gone with it.
 */
export function linkVisitsKey(id: string): Deno.KvKey {
  return ["link_visits", id];
}

/**
 * Marks a slug whose link was used up by its last visit, until the link's deadline, so the 404
 * page and unshorten can say so; a new link of the slug takes the mark away.
 */
export function usedUpLinkKey(slug: string): Deno.KvKey {
  return ["links_used_up", slug];
}

/**
 * A link's clicks by people as versions before 2026-12-02 counted them, one `sum` a second:
 * no longer written or read (a link's clicks are its record's and its journals'), deleted with
 * the link.
 */
export function linkClicksKey(id: string): Deno.KvKey {
  return ["link_clicks", id];
}

/**
 * The number of the last commit one click writer (a process) landed: checked and set by each of
 * its commits, so a commit whose outcome is unknown is told landed or lost by reading it.
 */
export function clickWriterKey(writer: string): Deno.KvKey {
  return ["click_writers", writer];
}

/** Prefix of every click writer's key. */
export function clickWritersPrefix(): Deno.KvKey {
  return ["click_writers"];
}

/**
 * One part of a click commit's journal: the figures its links' visits add besides their clicks,
 * written in the same commit as their sums and deleted once every link is folded into its record.
 */
export function clickJournalKey(writer: string, commit: number, part: number): Deno.KvKey {
  return ["click_journal", writer, commit, part];
}

/** Prefix of one click writer's journal. */
export function clickJournalPrefix(writer: string): Deno.KvKey {
  return ["click_journal", writer];
}

/** A service-wide counter: the sum of every live link's share of it. */
export function tallyKey(kind: string, name: string): Deno.KvKey {
  return ["tallies", kind, name];
}

/** Prefix of every name's counter of one tally. */
export function talliesPrefix(kind: string): Deno.KvKey {
  return ["tallies", kind];
}

/** Orders the names of one ranked tally by count. */
export function tallyRankKey(kind: string, count: bigint, name: string): Deno.KvKey {
  return ["tally_ranks", kind, count, name];
}

/** The count a name of a ranked tally is ordered under now, so its place can be moved. */
export function tallyRankedAtKey(kind: string, name: string): Deno.KvKey {
  return ["tally_ranked_at", kind, name];
}

/** Prefix of the counts the names of one ranked tally are ordered under. */
export function tallyRankedAtPrefix(kind: string): Deno.KvKey {
  return ["tally_ranked_at", kind];
}

/** Prefix of one ranked tally's order. */
export function tallyRanksPrefix(kind: string): Deno.KvKey {
  return ["tally_ranks", kind];
}

/** Orders links by clicks; holds `{slug, title}`. */
export function linkRankKey(clicks: bigint, id: string): Deno.KvKey {
  return ["link_ranks", clicks, id];
}

/** Prefix of the links-by-clicks order. */
export function linkRanksPrefix(): Deno.KvKey {
  return ["link_ranks"];
}

/** Bumped by every removal (one for each link removed), so each instance looks for removals. */
export function cacheEpochKey(): Deno.KvKey {
  return ["cache_epoch"];
}

/**
 * One removed link's entry in the log instances read to drop just that slug from their cache:
 * when it was removed (epoch ms, the remover's clock) and the removed link's id.
 */
export function cacheRemovalKey(at: number, id: string): Deno.KvKey {
  return ["cache_removals", at, id];
}

/** The log of {@linkcode cacheRemovalKey} entries. */
export function cacheRemovalsPrefix(): Deno.KvKey {
  return ["cache_removals"];
}

/** The last cache epoch one instance has cleared its cache for, and when it said so. */
export function cacheSeenKey(instance: string): Deno.KvKey {
  return ["cache_seen", instance];
}

/** Every instance's {@linkcode cacheSeenKey}. */
export function cacheSeenPrefix(): Deno.KvKey {
  return ["cache_seen"];
}

/** One client's request count for one limit in one fixed window. */
export function rateWindowKey(limit: string, client: string, windowStart: number): Deno.KvKey {
  return ["rate_windows", limit, client, windowStart];
}

/** A service-wide setting, such as the generated cookie secret. */
export function settingKey(name: string): Deno.KvKey {
  return ["settings", name];
}

/** One instance's health probe: written and read back by each health check, short-lived. */
export function healthKey(instance: string): Deno.KvKey {
  return ["health", instance];
}

/** Marks a scheduled run of a job as claimed by one instance; holds when it was claimed. */
export function jobRunKey(job: string, run: number): Deno.KvKey {
  return ["job_runs", job, run];
}

/** A bulk form's outcome, kept a short while for the page that shows it; holds slugs, not links. */
export function bulkOutcomeKey(id: string): Deno.KvKey {
  return ["bulk_outcomes", id];
}
