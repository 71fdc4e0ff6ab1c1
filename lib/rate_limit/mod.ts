/**
 * Rate limits: fixed windows counted in the store, so every instance shares them. A window the
 * store reads but whose write it refuses (a full disk) is counted in this process's memory
 * meanwhile, so a request that only reads is still answered; the store takes the count back on
 * its next write. A store that cannot be read at all is down, and so is the request.
 * @module
 */
import { rateWindowKey } from "../kv/keys.ts";
import { BusyError, StoreUnavailableError } from "../errors.ts";
import { retryLocked } from "../kv/retry.ts";
import { pause } from "../pause.ts";
import type { Store } from "../kv/store.ts";

/** One limit: at most `limit` requests per `windowMs`. */
export interface RateLimit {
  /** Name of the allowance; requests sharing a name share the count. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

const MINUTE = 60_000;

/** The per-client limits of the API, per minute. */
export const RATE_LIMITS = {
  create: { name: "create", limit: 30, windowMs: MINUTE },
  bulk: { name: "bulk", limit: 5, windowMs: MINUTE },
  export: { name: "export", limit: 20, windowMs: MINUTE },
  sweep: { name: "sweep", limit: 4, windowMs: MINUTE },
  unlock: { name: "unlock", limit: 10, windowMs: MINUTE },
  preview: { name: "preview", limit: 20, windowMs: MINUTE },
  links: { name: "links", limit: 30, windowMs: MINUTE },
  stats: { name: "stats", limit: 60, windowMs: MINUTE },
} as const satisfies Record<string, RateLimit>;

/** The outcome of counting one request. */
export interface RateDecision {
  /** Whether the request is within the limit. */
  allowed: boolean;
  /** Requests counted in this window, this one included. */
  count: number;
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** When the window ends (epoch ms). */
  resetAt: number;
  /** Whole seconds until the window ends, at least 1. */
  retryAfterSeconds: number;
}

/**
 * Counts one request of `client` against `rule` and says whether it is allowed. Every request
 * counts, refused ones included. The count is exact under concurrency: the requests of this
 * process are merged into one checked write at a time, retried (a few times, then `BusyError`)
 * when another instance moved first.
 */
export async function countRequest(
  store: Store,
  rule: RateLimit,
  client: string,
): Promise<RateDecision> {
  const window = windowOf(store, rule, client, store.now());
  const count = await changeCount(store, rule, window.key, 1);
  return {
    allowed: count <= rule.limit,
    count,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - count),
    resetAt: window.resetAt,
    retryAfterSeconds: window.retryAfterSeconds,
  };
}

/**
 * Takes back a request {@linkcode countRequest} counted (`counted` is what it answered), once it
 * turns out not to count: in the window it was counted in, never below zero.
 */
export async function uncountRequest(
  store: Store,
  rule: RateLimit,
  client: string,
  counted: RateDecision,
): Promise<void> {
  const window = windowOf(store, rule, client, counted.resetAt - rule.windowMs);
  await changeCount(store, rule, window.key, -1);
}

// A count's checked write is tried this often against other instances' writes before the
// request is answered 503: each instance has one write in flight per count, so a try fails only
// when another instance's write to the same count landed meanwhile.
const MAX_TRIES = 8;

/** Changes waiting for one count in this process, and whether a write of it is in flight. */
interface Lane {
  waiting: { delta: number; settle: (count: number | Error) => void }[];
  busy: boolean;
}

// Per database, then per count key: one write in flight per count, whatever the concurrency.
const lanes = new WeakMap<Deno.Kv, Map<string, Lane>>();

/**
 * Adds `delta` to the count under `key`; returns the new count. Changes of one count in this
 * process are merged: while one checked write is in flight, the changes that arrive wait and
 * are then written together, each given the count it makes in turn. So n requests sent together
 * cost a couple of commits rather than n (or, retried against each other, about n²/2), and the
 * count stays exact, and shared with every instance through the store.
 */
function changeCount(
  store: Store,
  rule: RateLimit,
  key: Deno.KvKey,
  delta: number,
): Promise<number> {
  let byKey = lanes.get(store.kv);
  if (byKey === undefined) lanes.set(store.kv, byKey = new Map());
  const id = JSON.stringify(key);
  let lane = byKey.get(id);
  if (lane === undefined) byKey.set(id, lane = { waiting: [], busy: false });
  const changed = new Promise<number>((resolve, reject) => {
    lane.waiting.push({
      delta,
      settle: (count) => count instanceof Error ? reject(count) : resolve(count),
    });
  });
  if (!lane.busy) void drain(store, rule, key, { lane, done: () => byKey.delete(id) });
  return changed;
}

/**
 * A window counted in this process while the store refuses its writes: the count last read from
 * the store (`base`), and the changes made since that the store has not taken (`delta`).
 */
interface LocalWindow {
  base: number;
  delta: number;
  /** When it is no longer needed (epoch ms): past its window, whatever the store does. */
  until: number;
}

// Per database, then per count key. Kept small: windows past their time go when it grows.
const localWindows = new WeakMap<Deno.Kv, Map<string, LocalWindow>>();
const LOCAL_PRUNE_AT = 10_000;
const LOCAL_MOST = 100_000;

/** The windows of `store` counted in this process. */
function localOf(store: Store): Map<string, LocalWindow> {
  let windows = localWindows.get(store.kv);
  if (windows === undefined) localWindows.set(store.kv, windows = new Map());
  return windows;
}

/**
 * Counts `deltas` in this process's memory for the window under `id`, from `stored` (the count
 * the store gave as it refused the write); the counts made.
 */
function countLocally(
  store: Store,
  rule: RateLimit,
  id: string,
  deltas: number[],
  stored: number,
): number[] {
  const windows = localOf(store);
  let window = windows.get(id);
  if (window === undefined) {
    const now = store.now();
    if (windows.size >= LOCAL_PRUNE_AT) {
      for (const [key, old] of windows) if (old.until <= now) windows.delete(key);
      if (windows.size >= LOCAL_MOST) windows.clear();
    }
    window = { base: 0, delta: 0, until: now + rule.windowMs * 2 };
    windows.set(id, window);
  }
  window.base = Math.max(window.base, stored);
  return deltas.map((delta) => {
    const count = Math.max(0, window.base + window.delta + delta);
    window.delta = count - window.base;
    return count;
  });
}

/** Writes `lane`'s waiting changes, a batch at a time, until none waits. */
async function drain(
  store: Store,
  rule: RateLimit,
  key: Deno.KvKey,
  { lane, done }: { lane: Lane; done: () => void },
): Promise<void> {
  lane.busy = true;
  while (lane.waiting.length > 0) {
    const batch = lane.waiting.splice(0);
    const deltas = batch.map((change) => change.delta);
    const read: { count?: number } = {};
    let counts: number[] | Error;
    try {
      counts = await writeBatch(store, rule, key, deltas, read);
    } catch (error) {
      // Read but not written (a full disk): counted here. A store that cannot even be read is
      // down, and so is the request.
      counts = error instanceof StoreUnavailableError && read.count !== undefined
        ? countLocally(store, rule, JSON.stringify(key), deltas, read.count)
        : error instanceof Error
        ? error
        : new Error(String(error));
    }
    batch.forEach((change, i) => change.settle(counts instanceof Error ? counts : counts[i]!));
  }
  lane.busy = false;
  done();
}

/**
 * Applies `deltas` in turn to the count under `key` in one checked write; the counts made. The
 * changes this process counted in memory while the store refused them go in first. The count
 * read from the store is left in `read`, for when the write fails.
 */
async function writeBatch(
  store: Store,
  rule: RateLimit,
  key: Deno.KvKey,
  deltas: number[],
  read: { count?: number },
): Promise<number[]> {
  const id = JSON.stringify(key);
  for (let attempt = 1;; attempt++) {
    const current = await store.kv.get(key);
    read.count = countIn(current.value);
    const local = localOf(store).get(id);
    let count = Math.max(0, read.count + (local?.delta ?? 0));
    const counts = deltas.map((delta) => count = Math.max(0, count + delta));
    const result = await retryLocked(() =>
      store.kv.atomic().check(current).set(key, count, { expireIn: rule.windowMs * 2 }).commit()
    );
    if (result.ok) {
      if (local !== undefined) localOf(store).delete(id);
      return counts;
    }
    if (attempt >= MAX_TRIES) throw new BusyError("the request count");
    await pause(Math.random() * 5 * attempt);
  }
}

/** The window of `rule` that holds the time `at`, for `client`: its key and when it ends. */
function windowOf(store: Store, rule: RateLimit, client: string, at: number) {
  const windowStart = at - (at % rule.windowMs);
  const resetAt = windowStart + rule.windowMs;
  return {
    key: rateWindowKey(rule.name, client, windowStart),
    resetAt,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - store.now()) / 1000)),
  };
}

/** A stored count; anything that is not a number counts as none. */
function countIn(value: unknown): number {
  return typeof value === "number" ? value : 0;
}
