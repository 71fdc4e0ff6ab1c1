/**
 * Rate limits: fixed windows counted in the store, so every instance shares them.
 * @module
 */
import { rateWindowKey } from "../kv/keys.ts";
import { pause, retryLocked } from "../kv/retry.ts";
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
 * counts, refused ones included. The count is exact under concurrency: each increment is a
 * checked write, retried when another request moved first.
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

/** Adds `delta` to the count under `key`, checked against other writers; returns the new count. */
async function changeCount(
  store: Store,
  rule: RateLimit,
  key: Deno.KvKey,
  delta: number,
): Promise<number> {
  for (let attempt = 0;; attempt++) {
    const current = await store.kv.get(key);
    const count = Math.max(0, countIn(current.value) + delta);
    const result = await retryLocked(() =>
      store.kv.atomic().check(current).set(key, count, { expireIn: rule.windowMs * 2 }).commit()
    );
    if (result.ok) return count;
    if (attempt > 3) await pause(Math.random() * Math.min(attempt, 20));
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
