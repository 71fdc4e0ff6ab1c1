/**
 * Unlocking protected links: checking a password, with guessing bounded per link without letting
 * one client lock the link's other users out.
 * @module
 */
import {
  LinkNotFoundError,
  NotProtectedError,
  TooManyGuessesError,
  WrongPasswordError,
} from "../errors.ts";
import { addressGroup } from "../ip/mod.ts";
import type { Store } from "../kv/store.ts";
import { getLiveLink } from "../links/read.ts";
import type { DatedLinkRecord } from "../links/record.ts";
import { verifyPassword } from "../passwords/mod.ts";
import { countRequest, countSoFar, type RateLimit } from "../rate_limit/mod.ts";

export * from "./token.ts";

const WINDOW_MS = 600_000;
/** Wrong passwords on one link in a 10-minute window, from all clients, that guard it. */
export const GUARDED_FROM = 30;
/** Attempts on one link in a window (wrong ones, then every one once guarded) that close it. */
export const CLOSED_AFTER = 130;
/** Attempts one client may make on a guarded link in a window, its wrong ones before included. */
export const TRIES_WHEN_GUARDED = 3;

/** Attempts counted on one link, from all clients (see {@linkcode unlockLink}). */
export const UNLOCK_PER_LINK: RateLimit = {
  name: "unlock_link",
  limit: CLOSED_AFTER,
  windowMs: WINDOW_MS,
};

// Attempts counted of one client on one link.
const UNLOCK_PER_CLIENT: RateLimit = {
  name: "unlock_link_client",
  limit: TRIES_WHEN_GUARDED,
  windowMs: WINDOW_MS,
};

/** One try at a protected link's password. */
export interface UnlockAttempt {
  slug: string;
  password: string;
  /** Who sends it: its address, as rate limits know it. */
  client: string;
}

/**
 * Checks the attempt's password against the live protected link and returns the link. Throws
 * `LinkNotFoundError`, `NotProtectedError`, `TooManyGuessesError` (429) or `WrongPasswordError`.
 *
 * Counting every attempt on a link against one cap would let anyone lock its users out, the
 * right password included, with a few requests. So only wrong passwords count, until a link has
 * taken {@linkcode GUARDED_FROM} in a window. Then it is guarded: every attempt counts before
 * the password is checked (so attempts sent together cannot slip past), a client (an IPv4
 * address, an IPv6 /64) gets {@linkcode TRIES_WHEN_GUARDED} attempts in all, and after
 * {@linkcode CLOSED_AFTER} attempts the link takes none until the window ends. A visitor with
 * the password who has not been guessing is heard until then.
 */
export async function unlockLink(store: Store, attempt: UnlockAttempt): Promise<DatedLinkRecord> {
  const { slug, password } = attempt;
  const record = await getLiveLink(store, slug);
  if (record === null) throw new LinkNotFoundError(slug);
  if (record.passHash === null) throw new NotProtectedError(slug);
  const mine = `${slug}\n${addressGroup(attempt.client)}`;
  const count = () =>
    Promise.all([
      countRequest(store, UNLOCK_PER_LINK, slug),
      countRequest(store, UNLOCK_PER_CLIENT, mine),
    ]);
  if ((await countSoFar(store, UNLOCK_PER_LINK, slug)).count >= GUARDED_FROM) {
    const [onLink, byClient] = await count();
    if (!onLink.allowed || !byClient.allowed) {
      const retry = Math.max(onLink.retryAfterSeconds, byClient.retryAfterSeconds);
      throw new TooManyGuessesError(TRIES_WHEN_GUARDED, WINDOW_MS, retry);
    }
    if (!(await verifyPassword(password, record.passHash))) throw new WrongPasswordError();
    return record;
  }
  if (!(await verifyPassword(password, record.passHash))) {
    await count();
    throw new WrongPasswordError();
  }
  return record;
}
