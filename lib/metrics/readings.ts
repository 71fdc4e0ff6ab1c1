/**
 * Figures a scrape reads from the store, each within a time bound so a scrape always answers.
 * @module
 */
import { beforeDeadline, TIMED_OUT } from "../kv/deadline.ts";
import { tallyKey } from "../kv/keys.ts";
import type { Store } from "../kv/store.ts";
import { readCount } from "../tallies/count.ts";
import { LINK_TALLY } from "../tallies/kinds.ts";

/** Most time a scrape waits for the store, in milliseconds. */
export const SCRAPE_TIMEOUT_MS = 1_000;

/** Options of {@linkcode readLiveLinks}. */
export interface ReadingOptions {
  /** Most time to wait; default {@linkcode SCRAPE_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * The number of links stored, from the service-wide tally (one read, whatever the number of
 * links): the live ones, and the expired ones not yet swept. `null` when the store fails or
 * does not answer in time.
 */
export async function readLiveLinks(
  store: Store,
  options: ReadingOptions = {},
): Promise<number | null> {
  try {
    const entry = await beforeDeadline(
      store.kv.get(tallyKey(LINK_TALLY, "")),
      options.timeoutMs ?? SCRAPE_TIMEOUT_MS,
    );
    return entry === TIMED_OUT ? null : Number(readCount(entry.value));
  } catch {
    return null;
  }
}
