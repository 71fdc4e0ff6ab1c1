/**
 * A bulk post's outcome, kept an hour for the page a browser is sent on to, so reloading it
 * makes no links again: the slugs and ids made (never destinations or titles, read live) and
 * the lines that failed with why (docs/decisions/2026-11-27-bulk-outcomes-kept-an-hour.md).
 * @module
 */
import { encodeBase64Url } from "../encoding.ts";
import { isTooLarge } from "../kv/guard.ts";
import { bulkOutcomeKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";

/** How long an outcome is kept, in milliseconds. */
export const BULK_OUTCOME_TTL_MS = 3_600_000;

/** One row of a kept outcome: a link made, or a line that failed and why. */
export type KeptRow = { ok: true; slug: string; id: string } | {
  ok: false;
  url: string;
  error: string;
};

/** A bulk post's outcome, as the store keeps it. */
export interface KeptOutcome {
  rows: KeptRow[];
  /** Whether the post carried a password, which no page sends back. */
  passGiven: boolean;
}

interface Stored extends KeptOutcome {
  keptUntil: number;
}

/**
 * Keeps `outcome` for {@linkcode BULK_OUTCOME_TTL_MS} and returns its id, a random name no one
 * can guess; `null` when the store refuses it (too large a value), so the caller can answer the
 * outcome at once instead.
 */
export async function keepBulkOutcome(store: Store, outcome: KeptOutcome): Promise<string | null> {
  const id = encodeBase64Url(crypto.getRandomValues(new Uint8Array(16)));
  const value: Stored = { ...outcome, keptUntil: store.now() + BULK_OUTCOME_TTL_MS };
  try {
    await store.kv.set(bulkOutcomeKey(id), value, { expireIn: BULK_OUTCOME_TTL_MS });
  } catch (error) {
    if (isTooLarge(error)) return null;
    throw error;
  }
  return id;
}

/** The outcome kept under `id`, or `null` when there is none or its hour is over. */
export async function findBulkOutcome(store: Store, id: string): Promise<KeptOutcome | null> {
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
  const { value } = await store.kv.get<Stored>(bulkOutcomeKey(id));
  if (value === null || value.keptUntil <= store.now()) return null;
  return { rows: value.rows, passGiven: value.passGiven };
}
