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
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in this window after this one. */
  remaining: number;
  /** When the window ends (epoch ms). */
  resetAt: number;
  /** Whole seconds until the window ends, at least 1. */
  retryAfterSeconds: number;
}

/** What `rule` has counted of `client` in the current window, and when that window ends. */
export interface RateCount {
  /** Requests counted so far in this window. */
  count: number;
  /** Whole seconds until the window ends, at least 1. */
  retryAfterSeconds: number;
}

/** How many requests of `client` `rule` has counted in the current window, counting none. */
export async function countSoFar(
  store: Store,
  rule: RateLimit,
  client: string,
): Promise<RateCount> {
  const window = windowOf(store, rule, client);
  const current = await store.kv.get(window.key);
  return { count: countIn(current.value), retryAfterSeconds: window.retryAfterSeconds };
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
  const { key, resetAt, retryAfterSeconds } = windowOf(store, rule, client);
  for (let attempt = 0;; attempt++) {
    const current = await store.kv.get(key);
    const count = countIn(current.value) + 1;
    const result = await retryLocked(() =>
      store.kv.atomic().check(current).set(key, count, { expireIn: rule.windowMs * 2 }).commit()
    );
    if (result.ok) {
      return {
        allowed: count <= rule.limit,
        limit: rule.limit,
        remaining: Math.max(0, rule.limit - count),
        resetAt,
        retryAfterSeconds,
      };
    }
    if (attempt > 3) await pause(Math.random() * Math.min(attempt, 20));
  }
}

/** The window of `rule` that holds the store's now, for `client`: its key and when it ends. */
function windowOf(store: Store, rule: RateLimit, client: string) {
  const now = store.now();
  const windowStart = now - (now % rule.windowMs);
  const resetAt = windowStart + rule.windowMs;
  return {
    key: rateWindowKey(rule.name, client, windowStart),
    resetAt,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}

/** A stored count; anything that is not a number counts as none. */
function countIn(value: unknown): number {
  return typeof value === "number" ? value : 0;
}
