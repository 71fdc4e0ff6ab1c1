/**
 * A link's own share of the service-wide tallies, kept in one record per link: what its
 * removal takes back out of every figure, and its click figures.
 * @module
 */
import { readCount } from "./count.ts";
import { CLICK_TALLY, DAY_LINK_TALLY, LINK_TALLY, REFERRER_TALLY } from "./kinds.ts";

/**
 * Counts by kind, then by name. The names are what visitors send (a referring host may be
 * `constructor` or `__proto__`), so their records have no prototype: see {@linkcode namesRecord}.
 */
export type Shares = Record<string, Record<string, number>>;

/** What the store keeps of one link's figures. */
export interface LinkStats {
  /** The link's share of each tally. */
  shares: Shares;
  /** The last click by a person (epoch ms), or `null`. */
  lastUsedAt: number | null;
  /**
   * By click writer, the number of its last commit whose journal is folded into these figures:
   * a journal part of that commit or before is not added again (see `lib/clicks/journal.ts`).
   */
  folded?: Record<string, number>;
}

/** Most distinct referring hosts kept per link; the rest count under `other`. */
export const MAX_REFERRERS_PER_LINK = 100;

/** Where a link's referrers past {@linkcode MAX_REFERRERS_PER_LINK} are counted. */
export const OTHER_REFERRERS = "other";

/** The referrer name of a visit whose `Referer` names no web host, or that sent none. */
export const DIRECT_REFERRER = "direct";

/** A new link's figures: it counts as one link, made on `day`. */
export function newLinkStats(day: string | null): LinkStats {
  const shares: Shares = { [LINK_TALLY]: namesRecord({ "": 1 }) };
  if (day !== null) shares[DAY_LINK_TALLY] = namesRecord({ [day]: 1 });
  return { shares, lastUsedAt: null };
}

/**
 * A stored record read as link figures; anything that is not a count (a string an older
 * writer left, say) reads as 0, so the next write repairs it.
 */
export function readLinkStats(value: unknown): LinkStats {
  const shares: Shares = {};
  const stored = (value as Partial<LinkStats> | null)?.shares;
  if (stored && typeof stored === "object") {
    for (const [kind, names] of Object.entries(stored)) {
      if (!names || typeof names !== "object") continue;
      const counts = namesRecord();
      for (const [name, count] of Object.entries(names)) {
        const n = Number(readCount(count));
        if (n > 0) counts[name] = n;
      }
      shares[kind] = counts;
    }
  }
  const last = (value as Partial<LinkStats> | null)?.lastUsedAt;
  const stats: LinkStats = {
    shares,
    lastUsedAt: typeof last === "number" && last > 0 ? last : null,
  };
  const folded = readFolded(value);
  if (folded !== undefined) stats.folded = folded;
  return stats;
}

/** The marks of a stored record (see {@linkcode LinkStats.folded}), read alone. */
export function readFolded(value: unknown): Record<string, number> | undefined {
  const folded = (value as Partial<LinkStats> | null)?.folded;
  if (!folded || typeof folded !== "object") return undefined;
  const marks = namesRecord();
  for (const [writer, commit] of Object.entries(folded)) {
    if (Number.isSafeInteger(commit)) marks[writer] = commit;
  }
  return marks;
}

/** The link's share of `kind` under `name`. */
export function shareOf(stats: LinkStats, kind: string, name = ""): number {
  return stats.shares[kind]?.[name] ?? 0;
}

/** The link's clicks by people. */
export function clicksOf(stats: LinkStats): number {
  return shareOf(stats, CLICK_TALLY);
}

/**
 * Adds `count` to the link's share of `kind` under `name`, and returns the name it was counted
 * under: a referrer past the per-link limit counts as `other`.
 */
export function addShare(stats: LinkStats, kind: string, name: string, count: number): string {
  const names = stats.shares[kind] ??= namesRecord();
  let counted = name;
  if (
    kind === REFERRER_TALLY && !Object.hasOwn(names, name) && !NOT_HOSTS.has(name) &&
    hostsIn(names) >= MAX_REFERRERS_PER_LINK
  ) counted = OTHER_REFERRERS;
  names[counted] = (Object.hasOwn(names, counted) ? names[counted]! : 0) + count;
  return counted;
}

// Referrer names that are no host, so not among the hosts a link keeps: no `Referer`, and the
// hosts past the limit.
const NOT_HOSTS: ReadonlySet<string> = new Set([DIRECT_REFERRER, OTHER_REFERRERS]);

function hostsIn(names: Record<string, number>): number {
  let hosts = 0;
  for (const name of Object.keys(names)) if (!NOT_HOSTS.has(name)) hosts++;
  return hosts;
}

/** A record of counts by name that inherits no name of its own, holding `counts`. */
function namesRecord(counts: Record<string, number> = {}): Record<string, number> {
  return Object.assign(Object.create(null), counts);
}

/** Every share of the link, as `[kind, name, count]`. */
export function* eachShare(stats: LinkStats): Generator<[string, string, number]> {
  for (const [kind, names] of Object.entries(stats.shares)) {
    for (const [name, count] of Object.entries(names)) {
      if (count > 0) yield [kind, name, count];
    }
  }
}
