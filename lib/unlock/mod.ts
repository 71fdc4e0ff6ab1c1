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
import { countRequest, type RateLimit, uncountRequest } from "../rate_limit/mod.ts";

export * from "./token.ts";

const WINDOW_MS = 600_000;
/** Wrong passwords on one link in a 10-minute window, from all clients, that guard it. */
export const GUARDED_FROM = 30;
/** Wrong passwords on one link in a window, from all clients, that close it to every attempt. */
export const CLOSED_AFTER = 130;
/** Attempts one client may make on a guarded link in a window, its wrong ones before included. */
export const TRIES_WHEN_GUARDED = 3;

/** Wrong passwords counted on one link, from all clients (see {@linkcode unlockLink}). */
export const UNLOCK_PER_LINK: RateLimit = {
  name: "unlock_link",
  limit: CLOSED_AFTER,
  windowMs: WINDOW_MS,
};

// Attempts of one client on one link: its wrong ones, and every one while the link is guarded.
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
 * right password included, with a few requests. So each attempt is counted on the link before
 * its password is checked (attempts sent together each see their own count) and taken back when
 * the password is right or the attempt is refused: what stays counted is wrong passwords. Past
 * {@linkcode GUARDED_FROM} of them in a window the link is guarded: a client (an IPv4 address,
 * an IPv6 /64) then gets {@linkcode TRIES_WHEN_GUARDED} attempts in all, its wrong ones before
 * included, and past {@linkcode CLOSED_AFTER} the link takes none until the window ends.
 */
export async function unlockLink(store: Store, attempt: UnlockAttempt): Promise<DatedLinkRecord> {
  const { slug, password } = attempt;
  const record = await getLiveLink(store, slug);
  if (record === null) throw new LinkNotFoundError(slug);
  if (record.passHash === null) throw new NotProtectedError(slug);
  const mine = `${slug}\n${addressGroup(attempt.client)}`;
  const onLink = await countRequest(store, UNLOCK_PER_LINK, slug);
  const guarded = onLink.count > GUARDED_FROM;
  const refuse = async (retryAfterSeconds: number) => {
    await uncountRequest(store, UNLOCK_PER_LINK, slug, onLink);
    return new TooManyGuessesError(TRIES_WHEN_GUARDED, WINDOW_MS, retryAfterSeconds);
  };
  if (!onLink.allowed) throw await refuse(onLink.retryAfterSeconds);
  if (guarded) {
    const byClient = await countRequest(store, UNLOCK_PER_CLIENT, mine);
    if (!byClient.allowed) throw await refuse(byClient.retryAfterSeconds);
  }
  if (await verifyPassword(password, record.passHash)) {
    await uncountRequest(store, UNLOCK_PER_LINK, slug, onLink);
    return record;
  }
  // A wrong password before the guard counts toward the client's tries once it is guarded.
  if (!guarded) await countRequest(store, UNLOCK_PER_CLIENT, mine);
  throw new WrongPasswordError();
}
