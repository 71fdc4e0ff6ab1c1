/**
 * Unlocking protected links: checking a password, with guessing bounded per link without letting
 * anyone lock the link's rightful users out.
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
import { countRequest, countSoFar, type RateLimit } from "../rate_limit/mod.ts";

export * from "./token.ts";

/**
 * Wrong passwords on one link from all clients together, past which the link is guarded: 30 per
 * 10 minutes. A guarded link hears no more guesses from a client that has guessed wrong on it in
 * the window, and still hears every client that has not.
 */
export const UNLOCK_PER_LINK: RateLimit = { name: "unlock_link", limit: 30, windowMs: 600_000 };

// One client's wrong passwords on one link, in the same windows; only counted, never a limit itself.
const WRONG_BY_CLIENT: RateLimit = { name: "unlock_link_client", limit: 0, windowMs: 600_000 };

/**
 * Checks `password`, sent by `client`, against the live protected link `slug` and returns the
 * link. Throws `LinkNotFoundError`, `NotProtectedError`, `RateLimitedError` (a client that
 * guessed wrong on a link many wrong guesses have hit) or `WrongPasswordError`.
 *
 * Counting every attempt on a link would let anyone lock its users out, the right password
 * included, with 30 requests; counting only the wrong ones, and then refusing only the clients
 * that made one, bounds guessing (a client gets one guess a window once the link is guarded)
 * while a visitor with the password is always heard.
 */
export async function unlockLink(
  store: Store,
  slug: string,
  password: string,
  client: string,
): Promise<DatedLinkRecord> {
  const record = await getLiveLink(store, slug);
  if (record === null) throw new LinkNotFoundError(slug);
  if (record.passHash === null) throw new NotProtectedError(slug);
  const mine = `${slug}\n${client}`;
  const [wrong, wrongByClient] = await Promise.all([
    countSoFar(store, UNLOCK_PER_LINK, slug),
    countSoFar(store, WRONG_BY_CLIENT, mine),
  ]);
  if (wrong.count >= UNLOCK_PER_LINK.limit && wrongByClient.count > 0) {
    throw new RateLimitedError(
      UNLOCK_PER_LINK.limit,
      UNLOCK_PER_LINK.windowMs,
      wrong.retryAfterSeconds,
    );
  }
  if (!(await verifyPassword(password, record.passHash))) {
    await Promise.all([
      countRequest(store, UNLOCK_PER_LINK, slug),
      countRequest(store, WRONG_BY_CLIENT, mine),
    ]);
    throw new WrongPasswordError();
  }
  return record;
}
