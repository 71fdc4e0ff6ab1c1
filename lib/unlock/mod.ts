/**
 * Unlocking protected links: checking a password, with brute force bounded per link.
 * @module
 */
import {
  LinkNotFoundError,
  NotProtectedError,
  RateLimitedError,
  WrongPasswordError,
} from "../errors.ts";
import type { Store } from "../kv/store.ts";
import { getLiveLink } from "../links/read.ts";
import type { DatedLinkRecord } from "../links/record.ts";
import { verifyPassword } from "../passwords/mod.ts";
import { countRequest, type RateLimit } from "../rate_limit/mod.ts";

export * from "./token.ts";

/** Attempts on one link across all clients: 30 per 10 minutes. */
export const UNLOCK_PER_LINK: RateLimit = { name: "unlock_link", limit: 30, windowMs: 600_000 };

/**
 * Checks `password` against the live protected link `slug` and returns the link. Throws
 * `LinkNotFoundError`, `NotProtectedError`, `RateLimitedError` (too many attempts on this link)
 * or `WrongPasswordError`.
 */
export async function unlockLink(
  store: Store,
  slug: string,
  password: string,
): Promise<DatedLinkRecord> {
  const record = await getLiveLink(store, slug);
  if (record === null) throw new LinkNotFoundError(slug);
  if (record.passHash === null) throw new NotProtectedError(slug);
  const attempts = await countRequest(store, UNLOCK_PER_LINK, slug);
  if (!attempts.allowed) {
    throw new RateLimitedError(
      attempts.limit,
      UNLOCK_PER_LINK.windowMs,
      attempts.retryAfterSeconds,
    );
  }
  if (!(await verifyPassword(password, record.passHash))) throw new WrongPasswordError();
  return record;
}
