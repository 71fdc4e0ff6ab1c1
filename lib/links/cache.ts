/**
 * A bounded in-process cache of resolved links, for the redirect. Expiry is checked on every
 * hit from the cached deadline; removals clear it here at once and, through the epoch key every
 * removal bumps, in every other instance almost at once.
 * @module
 */
import { cacheEpochKey } from "../kv/keys.ts";
import type { DatedLinkRecord } from "./record.ts";

/** A cached link with what the redirect sends for it, built once. */
export interface CachedLink {
  record: DatedLinkRecord;
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
  #watching: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null = null;
  #retry: ReturnType<typeof setTimeout> | undefined;

  /** Builds an empty cache. */
  constructor(options: LinkCacheOptions = {}) {
    this.#max = options.maxEntries ?? 50_000;
  }

  /** Links held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cached link of `slug`, or `undefined`. */
  get(slug: string): CachedLink | undefined {
    return this.#entries.get(slug);
  }

  /** Caches `record` under its slug. */
  set(record: DatedLinkRecord): CachedLink {
    if (this.#entries.size >= this.#max && !this.#entries.has(record.slug)) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    const entry = { record };
    this.#entries.set(record.slug, entry);
    return entry;
  }

  /** Forgets `slug`. */
  delete(slug: string): void {
    this.#entries.delete(slug);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
  }

  /**
   * Clears the cache whenever another instance (or this one) bumps the epoch key, until
   * {@linkcode LinkCache.unwatch}. A watch the store breaks is started again after a second.
   */
  watch(kv: Deno.Kv): void {
    if (this.#watching) return;
    const reader = kv.watch([cacheEpochKey()]).getReader();
    this.#watching = reader;
    (async () => {
      try {
        for (;;) {
          const { done } = await reader.read();
          if (done) return;
          this.clear();
        }
      } catch {
        // Entries may be stale while the watch is down: drop them, and watch again.
        this.clear();
        if (this.#watching !== reader) return;
        this.#watching = null;
        this.#retry = setTimeout(() => this.watch(kv), 1000);
      }
    })();
  }

  /** Stops watching the epoch key. */
  async unwatch(): Promise<void> {
    clearTimeout(this.#retry);
    const reader = this.#watching;
    this.#watching = null;
    await reader?.cancel().catch(() => {});
  }
}
