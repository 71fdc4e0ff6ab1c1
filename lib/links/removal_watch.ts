/**
 * Following the removals of every instance that shares a store: each instance drops the links
 * another removed from its own link cache, says which removals it has caught up with, and a
 * removal waits until every instance has
 * (docs/decisions/2026-11-25-removals-wait-for-every-instance.md).
 * @module
 */
import { cacheEpochKey, cacheRemovalsPrefix, cacheSeenKey, cacheSeenPrefix } from "../kv/keys.ts";
import { beforeDeadline } from "../kv/deadline.ts";
import { pause } from "../pause.ts";
import type { LinkCache } from "./cache.ts";

// A watching instance writes its cache_seen entry again this often, even with no new epoch: an
// entry older than SEEN_LIVE_MS is an instance that stopped without saying so (killed, say),
// which a removal does not wait for. The store drops an entry SEEN_KEPT_MS after its last write.
// An entry's age is read on the remover's clock from the writer's: instances' clocks must agree
// within a second or two, as NTP keeps them (the click figures' commit numbers assume as much).
const SEEN_REFRESH_MS = 2_000;
const SEEN_LIVE_MS = 6_000;
const SEEN_KEPT_MS = 60_000;
// The longest a stop waits for the store to take its last word.
const STOP_WAIT_MS = 1_000;

/** What an instance's {@linkcode cacheSeenKey} holds. */
interface SeenEpoch {
  /** The epoch its cache was last cleared for; 0 when the key was never bumped. */
  epoch: bigint;
  /** When it wrote this (epoch ms, its own clock). */
  at: number;
}

/** Options of {@linkcode RemovalWatch}. */
export interface RemovalWatchOptions {
  /**
   * How often the epoch key is read besides being watched; default 250 ms (a watch misses other
   * processes on a local file).
   */
  pollMs?: number;
  /**
   * The clock (epoch ms) this instance dates its word by, and judges by whether another's is
   * recent; default `Date.now`.
   */
  now?: () => number;
}

/** Options of {@linkcode RemovalWatch.waitForEveryInstance}. */
export interface EveryInstanceWaitOptions {
  /** The longest to wait for an instance that has not caught up; default 1,000 ms. */
  timeoutMs?: number;
  /** How often the instances' entries are read while one lags; default 10 ms. */
  pollMs?: number;
}

/**
 * One instance's following of every instance's removals, for its link cache: once started, it
 * watches the epoch key and also polls it, drops the slugs the removal log names from `cache`,
 * and writes down the epoch it has caught up with, which
 * {@linkcode RemovalWatch.waitForEveryInstance} reads.
 */
export class RemovalWatch {
  readonly cache: LinkCache;
  readonly kv: Deno.Kv;
  #instance = crypto.randomUUID();
  #pollMs: number;
  #now: () => number;
  #watching = false;
  // The cache_seen write under way, if any; the next one waits for it, so an older epoch never
  // lands after a newer, and epochs seen meanwhile make one write, of the latest.
  #telling: Promise<void> = Promise.resolve();
  #reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | null = null;
  #poll: ReturnType<typeof setTimeout> | undefined;

  constructor(cache: LinkCache, kv: Deno.Kv, options: RemovalWatchOptions = {}) {
    this.cache = cache;
    this.kv = kv;
    this.#pollMs = options.pollMs ?? 250;
    this.#now = options.now ?? Date.now;
  }

  /** Follows every instance's removals until {@linkcode RemovalWatch.stop}. */
  start(): void {
    if (this.#watching) return;
    this.#watching = true;
    const kv = this.kv;
    let toldAt = -Infinity;
    let next: SeenEpoch | null = null;
    let writing = false;
    const write = async () => {
      writing = true;
      for (let seen = next; seen !== null; seen = next) {
        next = null;
        // A write that fails is made again at the next refresh.
        await kv.set(cacheSeenKey(this.#instance), seen, { expireIn: SEEN_KEPT_MS }).catch(
          () => {},
        );
      }
      writing = false;
    };
    const tell = (told: bigint) => {
      toldAt = this.#now();
      next = { epoch: told, at: toldAt };
      if (!writing) this.#telling = write();
    };
    const follower = new RemovalFollower(this.cache, kv);
    // Readings are followed one at a time, in the order they arrive.
    let following: Promise<void> = Promise.resolve();
    const seen = (value: unknown) => {
      following = following.then(async () => {
        if (!this.#watching) return; // a reading that lands after the stop says nothing
        const moved = await follower.follow(epochOf(value) ?? 0n);
        if (moved || this.#now() - toldAt >= SEEN_REFRESH_MS) tell(follower.epoch ?? 0n);
      }).catch(() => follower.lost()); // the log could not be read: entries may be stale
    };
    const poll = async () => {
      try {
        seen((await kv.get(cacheEpochKey())).value);
        await following;
      } catch {
        follower.lost(); // while the store fails, entries may be stale
      }
      if (this.#watching) this.#poll = setTimeout(poll, this.#pollMs);
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

  /** Stops following removals; removals no longer wait for this instance. */
  async stop(): Promise<void> {
    const watched = this.#watching;
    this.#watching = false;
    clearTimeout(this.#poll);
    const reader = this.#reader;
    this.#reader = null;
    await reader?.cancel().catch(() => {});
    if (!watched) return;
    // A stuck store does not hold the stop: the entry then ages out of the removals' view.
    await beforeDeadline(this.#telling, STOP_WAIT_MS);
    await beforeDeadline(
      this.kv.delete(cacheSeenKey(this.#instance)).catch(() => {}),
      STOP_WAIT_MS,
    );
  }

  /**
   * Waits until every other instance sharing the store has cleared its cache for the epoch as it
   * stands now: after a removal, no instance then answers from a copy of the removed link. An
   * instance that has not said so within `timeoutMs` (its event loop or its store stuck) is not
   * waited for longer, nor is a store that does not answer within that time. True when every
   * instance had; false on the timeout or a store failure.
   */
  async waitForEveryInstance(options: EveryInstanceWaitOptions = {}): Promise<boolean> {
    const timeoutMs = options.timeoutMs ?? 1_000;
    // The wait is timed on the watch's clock; a store that does not answer, on the real one.
    const started = this.#now();
    const waited = async () => {
      const epoch = epochOf((await this.kv.get(cacheEpochKey())).value) ?? 0n;
      while (await this.#someoneBehind(epoch)) {
        if (this.#now() - started >= timeoutMs) return false;
        await pause(options.pollMs ?? 10);
      }
      return true;
    };
    return await beforeDeadline(waited().catch(() => false), timeoutMs) === true;
  }

  async #someoneBehind(epoch: bigint): Promise<boolean> {
    const liveSince = this.#now() - SEEN_LIVE_MS;
    for await (const entry of this.kv.list<SeenEpoch>({ prefix: cacheSeenPrefix() })) {
      if (entry.key[1] === this.#instance) continue; // this one clears its own at once
      const seen = entry.value;
      if (typeof seen?.at !== "number" || typeof seen.epoch !== "bigint") continue;
      if (seen.at >= liveSince && seen.epoch < epoch) return true;
    }
    return false;
  }
}

// Removals are read from the log from this long before the latest one seen: entries are keyed
// by their writer's clock, and a commit may land a little after its entry's time (a locked
// local file is retried for up to 5 s); clocks must agree within a second or two, as for the
// cache_seen entries.
const LOG_OVERLAP_MS = 10_000;
// Past this many removals at once, the whole cache is dropped rather than the log read.
const MOST_FOLLOWED = 1_000;

/**
 * Follows the removals of every instance for one cache: the epoch counts them, and the removal
 * log says which slugs they were. Each reading of the epoch that moves it by n reads the log's
 * new entries and drops their slugs; when it finds fewer than n (entries already gone from the
 * log, clocks further apart than the overlap allows), when n is over {@linkcode MOST_FOLLOWED},
 * when the store fails, or on the first reading, the whole cache is dropped instead. Times here
 * are the log writers' clocks (`Date.now`), not the watch's.
 */
class RemovalFollower {
  /** The epoch caught up with (0 before any removal): `undefined` before the first reading. */
  epoch: bigint | undefined = undefined;
  // Where the log was read to (entry time, the writers' clocks), the entries read since then
  // less the overlap (id to time), and how many entries were found beyond what the epoch had
  // counted when they were read (their bumps are counted by a later reading).
  #readTo = -Infinity;
  #read = new Map<string, number>();
  #ahead = 0;
  // When the whole cache was last dropped: entries older than that were counted by the epoch
  // then, so they are dropped again (harmless) but not counted as new.
  #droppedAt = -Infinity;

  constructor(readonly cache: LinkCache, readonly kv: Deno.Kv) {}

  /** Catches up with the epoch read as `current`; true when that changed anything. */
  async follow(current: bigint): Promise<boolean> {
    const previous = this.epoch;
    if (previous === current) return false;
    if (previous !== undefined && current < previous) {
      return false; // an older reading, overtaken by a newer one
    }
    this.epoch = current;
    const removed = previous === undefined ? null : current - previous;
    if (removed === null || removed > BigInt(MOST_FOLLOWED)) {
      this.#dropAll();
      return true;
    }
    const found = await this.#readLog();
    if (BigInt(found + this.#ahead) < removed) this.#dropAll();
    else this.#ahead = found + this.#ahead - Number(removed);
    return true;
  }

  /** The store failed: what the cache holds may be stale, and where the log stands unknown. */
  lost(): void {
    this.epoch = undefined;
    this.#dropAll();
  }

  #dropAll(): void {
    this.cache.clear();
    this.#droppedAt = this.#readTo = Date.now();
    this.#read.clear();
    this.#ahead = 0;
  }

  /** Drops the slug of every log entry not read before; how many there were. */
  async #readLog(): Promise<number> {
    const from = this.#readTo - LOG_OVERLAP_MS;
    const prefix = cacheRemovalsPrefix();
    let found = 0;
    const entries = this.kv.list<string>({
      start: [...prefix, Number.isFinite(from) ? from : 0],
      end: [...prefix, Number.MAX_SAFE_INTEGER],
    });
    for await (const entry of entries) {
      const [, at, id] = entry.key;
      if (typeof at !== "number" || typeof id !== "string" || this.#read.has(id)) continue;
      this.#read.set(id, at);
      this.#readTo = Math.max(this.#readTo, at);
      if (typeof entry.value === "string") this.cache.delete(entry.value);
      if (at >= this.#droppedAt) found++;
    }
    const forgetBefore = this.#readTo - LOG_OVERLAP_MS;
    for (const [id, at] of this.#read) if (at < forgetBefore) this.#read.delete(id);
    return found;
  }
}

/** The count of removals the epoch key holds, or `null` while no removal has bumped it. */
function epochOf(value: unknown): bigint | null {
  return value instanceof Deno.KvU64 ? value.value : null;
}
