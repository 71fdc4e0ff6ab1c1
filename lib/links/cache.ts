/**
 * A bounded in-process cache of resolved links, for the redirect. Expiry is checked on every
 * hit from the cached deadline; removals clear it here at once and, through the epoch key every
 * removal bumps, in every other instance almost at once.
 * @module
 */
import { cacheEpochKey } from "../kv/keys.ts";
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

/** The cache: slug to link, bounded by count. */
export class LinkCache {
  #entries = new Map<string, CachedLink>();
  #max: number;
  #generation = 0;
  #watching = false;
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
   * do not see each other's changes through a watch.
   */
  watch(kv: Deno.Kv, options: { pollMs?: number } = {}): void {
    if (this.#watching) return;
    this.#watching = true;
    let epoch: bigint | null | undefined;
    // The first epoch read clears the cache too: what it held before (read while the store was
    // coming up, say) may predate a removal that epoch counts.
    const seen = (value: unknown) => {
      const current = value instanceof Deno.KvU64 ? value.value : null;
      if (current !== epoch) this.clear();
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

  /** Stops watching the epoch key. */
  async unwatch(): Promise<void> {
    this.#watching = false;
    clearTimeout(this.#poll);
    const reader = this.#reader;
    this.#reader = null;
    await reader?.cancel().catch(() => {});
  }
}
