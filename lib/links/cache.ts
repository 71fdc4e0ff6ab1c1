/**
 * A bounded in-process cache of resolved links, for the redirect. Expiry is checked on every
 * hit from the cached deadline; removals clear it here at once and, through the epoch key every
 * removal bumps, in every other instance almost at once. Each watching instance writes down the
 * epoch it has cleared its cache for, so a removal can wait until every instance has.
 * @module
 */
import { cacheEpochKey, cacheSeenKey, cacheSeenPrefix } from "../kv/keys.ts";
import { pause } from "../kv/retry.ts";
import type { DatedLinkRecord } from "./record.ts";

/** A cached link, as the store last gave it. */
export interface CachedLink {
  record: DatedLinkRecord;
  versionstamp: string;
}

/** Options of {@linkcode LinkCache}. */
export interface LinkCacheOptions {
  /** Most links kept; default 50,000. The oldest entry goes first. */
  maxEntries?: number;
}

// A watching instance writes its cache_seen entry again this often, even with no new epoch: an
// entry older than SEEN_LIVE_MS is an instance that stopped without saying so (killed, say),
// which a removal does not wait for. The store drops an entry SEEN_KEPT_MS after its last write.
const SEEN_REFRESH_MS = 2_000;
const SEEN_LIVE_MS = 6_000;
const SEEN_KEPT_MS = 60_000;

/** What an instance's {@linkcode cacheSeenKey} holds. */
interface SeenEpoch {
  /** The epoch its cache was last cleared for; 0 when the key was never bumped. */
  epoch: bigint;
  /** When it wrote this (epoch ms, its own clock). */
  at: number;
}

/** Options of {@linkcode LinkCache.seenEverywhere}. */
export interface SeenEverywhereOptions {
  /** The longest to wait for an instance that has not caught up; default 1,000 ms. */
  timeoutMs?: number;
  /** How often the instances' entries are read while one lags; default 10 ms. */
  pollMs?: number;
}

/** The cache: slug to link, bounded by count. */
export class LinkCache {
  #entries = new Map<string, CachedLink>();
  #max: number;
  #generation = 0;
  #instance = crypto.randomUUID();
  #watching = false;
  #watched: Deno.Kv | null = null;
  // The cache_seen writes, one after the other, so an older epoch never lands after a newer.
  #telling: Promise<void> = Promise.resolve();
  #reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null = null;
  #poll: ReturnType<typeof setTimeout> | undefined;

  /** Builds an empty cache. */
  constructor(options: LinkCacheOptions = {}) {
    this.#max = options.maxEntries ?? 50_000;
  }

  /** Links held. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Moves on with every removal from the cache. A reader takes it before asking the store and
   * hands it to {@linkcode LinkCache.set}, so an answer read before a removal is never cached
   * after it.
   */
  get generation(): number {
    return this.#generation;
  }

  /** The cached link of `slug`, or `undefined`. */
  get(slug: string): CachedLink | undefined {
    return this.#entries.get(slug);
  }

  /** Caches `record` under its slug, unless something was removed since `generation`. */
  set(record: DatedLinkRecord, versionstamp: string, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= this.#max && !this.#entries.has(record.slug)) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(record.slug, { record, versionstamp });
  }

  /** Forgets `slug`. */
  delete(slug: string): void {
    this.#generation++;
    this.#entries.delete(slug);
  }

  /** Forgets everything. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  /**
   * Clears the cache whenever any instance bumps the epoch key, until
   * {@linkcode LinkCache.unwatch}: through `kv.watch`, which the managed store delivers at once,
   * and by reading the key every `pollMs` (default 250 ms), since processes sharing a local file
   * do not see each other's changes through a watch. After each clear, and every couple of
   * seconds meanwhile, it writes down the epoch it cleared for, which
   * {@linkcode LinkCache.seenEverywhere} reads.
   */
  watch(kv: Deno.Kv, options: { pollMs?: number } = {}): void {
    if (this.#watching) return;
    this.#watching = true;
    this.#watched = kv;
    let epoch: bigint | null | undefined;
    let toldAt = -Infinity;
    const tell = (told: bigint) => {
      toldAt = Date.now();
      const seen: SeenEpoch = { epoch: told, at: toldAt };
      this.#telling = this.#telling
        .then(() => kv.set(cacheSeenKey(this.#instance), seen, { expireIn: SEEN_KEPT_MS }))
        .then(() => {}, () => {}); // a write that fails is made again at the next refresh
    };
    // The first epoch read clears the cache too: what it held before (read while the store was
    // coming up, say) may predate a removal that epoch counts.
    const seen = (value: unknown) => {
      if (!this.#watching) return; // a reading that lands after the stop says nothing
      const current = value instanceof Deno.KvU64 ? value.value : null;
      if (current !== epoch) this.clear();
      if (current !== epoch || Date.now() - toldAt >= SEEN_REFRESH_MS) tell(current ?? 0n);
      epoch = current;
    };
    const poll = async () => {
      try {
        seen((await kv.get(cacheEpochKey())).value);
      } catch {
        this.clear(); // while the store fails, entries may be stale
      }
      if (this.#watching) this.#poll = setTimeout(poll, options.pollMs ?? 250);
    };
    void poll();
    const reader = kv.watch([cacheEpochKey()]).getReader();
    this.#reader = reader;
    (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          seen(value[0]?.value);
        }
      } catch {
        // A broken watch leaves the polling to do the work.
      }
    })();
  }

  /** Stops watching the epoch key; removals no longer wait for this instance. */
  async unwatch(): Promise<void> {
    this.#watching = false;
    clearTimeout(this.#poll);
    const reader = this.#reader;
    this.#reader = null;
    await reader?.cancel().catch(() => {});
    const kv = this.#watched;
    this.#watched = null;
    await this.#telling;
    await kv?.delete(cacheSeenKey(this.#instance)).catch(() => {});
  }

  /**
   * Waits until every other instance watching `kv` has cleared its cache for the epoch as it
   * stands now: after a removal, no instance then answers from a copy of the removed link. An
   * instance that has not said so within `timeoutMs` (its event loop or its store stuck) is not
   * waited for longer. True when every instance had; false on the timeout or a store failure.
   */
  async seenEverywhere(kv: Deno.Kv, options: SeenEverywhereOptions = {}): Promise<boolean> {
    const deadline = Date.now() + (options.timeoutMs ?? 1_000);
    try {
      const value = (await kv.get(cacheEpochKey())).value;
      const epoch = value instanceof Deno.KvU64 ? value.value : 0n;
      while (await this.#someoneBehind(kv, epoch)) {
        if (Date.now() >= deadline) return false;
        await pause(options.pollMs ?? 10);
      }
      return true;
    } catch {
      return false;
    }
  }

  async #someoneBehind(kv: Deno.Kv, epoch: bigint): Promise<boolean> {
    const liveSince = Date.now() - SEEN_LIVE_MS;
    for await (const entry of kv.list<SeenEpoch>({ prefix: cacheSeenPrefix() })) {
      if (entry.key[1] === this.#instance) continue; // this one clears its own at once
      const seen = entry.value;
      if (typeof seen?.at !== "number" || typeof seen.epoch !== "bigint") continue;
      if (seen.at >= liveSince && seen.epoch < epoch) return true;
    }
    return false;
  }
}
