/**
 * Health: whether the store answers a write and a read, within a time bound.
 * @module
 */
import { z } from "zod";
import { StoreUnavailableError } from "../errors.ts";
import { beforeDeadline, TIMED_OUT } from "../kv/deadline.ts";
import { healthKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";

/** Most time a health check waits for the store, in milliseconds. */
export const HEALTH_TIMEOUT_MS = 2_000;

// The probe key outlives a check only briefly: the store drops it by itself.
const PROBE_TTL_MS = 60_000;

/** What a health check found. */
export type StoreHealth = { ok: true } | { ok: false; error: string; cause: unknown };

/** Options of {@linkcode checkStore}. */
export interface CheckStoreOptions {
  /** Names this instance's probe key, so instances sharing a store do not race. */
  instanceId: string;
  /** Most time to wait; default {@linkcode HEALTH_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * Writes this instance's probe key and reads it back. Resolves within `timeoutMs` whatever the
 * store does: a failure, a wrong answer or no answer in time is `ok: false` with a sentence.
 */
export async function checkStore(store: Store, options: CheckStoreOptions): Promise<StoreHealth> {
  const timeoutMs = options.timeoutMs ?? HEALTH_TIMEOUT_MS;
  const health = await beforeDeadline(probe(store, options.instanceId), timeoutMs);
  if (health !== TIMED_OUT) return health;
  const error = `storage did not answer within ${timeoutMs} ms`;
  return { ok: false, error, cause: new Error(error) };
}

async function probe(store: Store, instanceId: string): Promise<StoreHealth> {
  const key = healthKey(instanceId);
  const stamp = `${store.now()}:${crypto.randomUUID()}`;
  try {
    await store.kv.set(key, stamp, { expireIn: PROBE_TTL_MS });
    const read = await store.kv.get<string>(key);
    if (read.value !== stamp) {
      const error = "storage did not return what was just written";
      return { ok: false, error, cause: new Error(error) };
    }
    return { ok: true };
  } catch (cause) {
    return { ok: false, error: new StoreUnavailableError(cause).message, cause };
  }
}

/** `GET /api/health` when the store answers. */
export const healthyReport = z.object({
  ok: z.literal(true),
  store: z.literal("ok").describe("The store answered a write and a read"),
  version: z.string().describe("The running release"),
});

/** `GET /api/health` when the store does not answer. */
export const unhealthyReport = z.object({
  ok: z.literal(false),
  store: z.literal("down").describe("The store failed, or did not answer within 2 s"),
  error: z.string().describe("What went wrong, as a sentence for a person"),
});
