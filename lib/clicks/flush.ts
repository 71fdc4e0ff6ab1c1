/**
 * Writing buffered visits to the store: batched atomic sums, each chunk within the store's
 * limits, every figure kept in step with the link's own share of it.
 * @module
 */
import { getManyChunked } from "../kv/get_many.ts";
import { linkKey, linkLastUsedKey, linkRankKey, linkTallyKey, tallyKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { isExpired, type LinkRecord } from "../links/record.ts";
import { isSummable, readCount } from "../tallies/count.ts";
import { CLICKS, COUNTRIES, DAY_CLICKS, DEVICES, REFERRERS } from "../tallies/kinds.ts";
import { moveRank } from "../tallies/rank.ts";

/** One link's visits, classified and summed. */
export interface LinkVisits {
  slug: string;
  id: string;
  title: string;
  /** Clicks by people. */
  clicks: number;
  /** Time of the last click by a person (epoch ms), 0 when none. */
  lastUsedAt: number;
  /** UTC day of the visits. */
  day: string;
  /** Clicks by people per referring host. */
  referrers: Map<string, number>;
  /** Visits per device class, bots included. */
  devices: Map<string, number>;
  /** Clicks by people per country. */
  countries: Map<string, number>;
}

/** What a flush wrote. */
export interface FlushOutcome {
  /** Clicks by people written. */
  clicks: number;
  /** Bot visits written. */
  bots: number;
  /** Visits dropped because their link was gone or expired by then. */
  dropped: number;
}

// An atomic allows 100 checks and 1,000 mutations; stay well inside both.
const MAX_CHECKS = 100;
const MAX_MUTATIONS = 800;
const ATTEMPTS = 20;

/**
 * Writes the visits of many links, chunk by chunk. Each chunk is one atomic commit that checks
 * every record and counter it reads, retried when another writer moved first; visits of a link
 * that is gone, replaced or expired are dropped. Yields to the event loop between chunks.
 * Throws on a store failure; chunks already committed stay committed, and `onCommitted` has
 * been told of each of them.
 */
export async function writeVisits(
  store: Store,
  links: LinkVisits[],
  onCommitted: (chunk: LinkVisits[], outcome: FlushOutcome) => void,
): Promise<FlushOutcome> {
  const total: FlushOutcome = { clicks: 0, bots: 0, dropped: 0 };
  for (const chunk of chunksOf(links)) {
    const outcome = await writeChunk(store, chunk);
    onCommitted(chunk, outcome);
    total.clicks += outcome.clicks;
    total.bots += outcome.bots;
    total.dropped += outcome.dropped;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return total;
}

function* chunksOf(links: LinkVisits[]): Generator<LinkVisits[]> {
  let chunk: LinkVisits[] = [];
  let globals = new Set<string>();
  let mutations = 0;
  for (const link of links) {
    const names = [...rankedNames(link)];
    const fresh = names.filter((name) => !globals.has(name));
    const linkMutations = 6 + 2 * names.length + 3 * fresh.length;
    const checks = 2 * (chunk.length + 1) + globals.size + fresh.length;
    if (chunk.length > 0 && (checks > MAX_CHECKS || mutations + linkMutations > MAX_MUTATIONS)) {
      yield chunk;
      chunk = [];
      globals = new Set();
      mutations = 0;
    }
    chunk.push(link);
    for (const name of names) globals.add(name);
    mutations += linkMutations;
  }
  if (chunk.length > 0) yield chunk;
}

function* rankedNames(link: LinkVisits): Generator<string> {
  for (const [kind, counts] of rankedKinds(link)) {
    for (const name of counts.keys()) yield `${kind}\u0000${name}`;
  }
}

function rankedKinds(link: LinkVisits): [string, Map<string, number>][] {
  return [[REFERRERS, link.referrers], [DEVICES, link.devices], [COUNTRIES, link.countries]];
}

async function writeChunk(store: Store, chunk: LinkVisits[]): Promise<FlushOutcome> {
  const globalDeltas = new Map<string, { kind: string; name: string; delta: bigint }>();
  for (const link of chunk) {
    for (const [kind, counts] of rankedKinds(link)) {
      for (const [name, count] of counts) {
        const key = `${kind}\u0000${name}`;
        const entry = globalDeltas.get(key) ?? { kind, name, delta: 0n };
        entry.delta += BigInt(count);
        globalDeltas.set(key, entry);
      }
    }
  }
  for (let attempt = 1;; attempt++) {
    const keys: Deno.KvKey[] = chunk.flatMap((link) => [
      linkKey(link.slug),
      linkTallyKey(link.id, CLICKS, ""),
    ]);
    const globals = [...globalDeltas.values()];
    const entries = await getManyChunked(store.kv, [
      ...keys,
      ...globals.map(({ kind, name }) => tallyKey(kind, name)),
    ]);
    const now = store.now();
    const atomic = store.kv.atomic();
    const outcome: FlushOutcome = { clicks: 0, bots: 0, dropped: 0 };
    // Visits of links that are gone do not reach the totals: take their share back out.
    const skipped = new Map<string, bigint>();
    const dayClicks = new Map<string, bigint>();
    chunk.forEach((link, i) => {
      const record = entries[2 * i]!;
      const counter = entries[2 * i + 1]!;
      const value = record.value as LinkRecord | null;
      const bots = link.devices.get("bot") ?? 0;
      if (value === null || value.id !== link.id || isExpired(value, now)) {
        outcome.dropped += link.clicks + bots;
        for (const [kind, counts] of rankedKinds(link)) {
          for (const [name, count] of counts) {
            const key = `${kind}\u0000${name}`;
            skipped.set(key, (skipped.get(key) ?? 0n) + BigInt(count));
          }
        }
        return;
      }
      atomic.check(record).check(counter);
      addLinkWrites(atomic, link, counter);
      dayClicks.set(link.day, (dayClicks.get(link.day) ?? 0n) + BigInt(link.clicks));
      outcome.clicks += link.clicks;
      outcome.bots += bots;
    });
    if (outcome.clicks > 0) atomic.sum(tallyKey(CLICKS, ""), BigInt(outcome.clicks));
    for (const [day, clicks] of dayClicks) {
      if (clicks > 0n) atomic.sum(tallyKey(DAY_CLICKS, day), clicks);
    }
    globals.forEach(({ kind, name, delta }, i) => {
      const amount = delta - (skipped.get(`${kind}\u0000${name}`) ?? 0n);
      if (amount === 0n) return;
      const entry = entries[keys.length + i]!;
      const current = readCount(entry.value);
      atomic.check(entry).sum(tallyKey(kind, name), amount);
      moveRank(atomic, kind, name, current, current + amount);
    });
    const result = await retryLocked(() => atomic.commit());
    if (result.ok) return outcome;
    if (attempt >= ATTEMPTS) throw new Error("click flush kept conflicting with other writers");
  }
}

function addLinkWrites(
  atomic: Deno.AtomicOperation,
  link: LinkVisits,
  counter: Deno.KvEntryMaybe<unknown>,
): void {
  const { id, day } = link;
  if (link.clicks > 0) {
    const before = readCount(counter.value);
    const after = before + BigInt(link.clicks);
    const key = linkTallyKey(id, CLICKS, "");
    // A counter an older writer left as something else than a count is repaired here.
    if (isSummable(counter.value)) atomic.sum(key, BigInt(link.clicks));
    else atomic.set(key, new Deno.KvU64(after));
    if (before > 0n) atomic.delete(linkRankKey(before, id));
    atomic.set(linkRankKey(after, id), { slug: link.slug, title: link.title });
    atomic.max(linkLastUsedKey(id), BigInt(link.lastUsedAt));
    atomic.sum(linkTallyKey(id, DAY_CLICKS, day), BigInt(link.clicks));
  }
  for (const [kind, counts] of rankedKinds(link)) {
    for (const [name, count] of counts) atomic.sum(linkTallyKey(id, kind, name), BigInt(count));
  }
}
