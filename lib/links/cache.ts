/**
 * A bounded in-process cache of resolved links, for the redirect. A removal drops its slugs here
 * at once, and every other instance drops them through its removal watch (`removal_watch.ts`;
 * docs/decisions/2026-11-25-removals-wait-for-every-instance.md).
 * @module
 */
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
}
