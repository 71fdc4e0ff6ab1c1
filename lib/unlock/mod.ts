/**
 * Unlocking protected links: checking a password, with guessing bounded per client and per link
 * without letting anyone lock a link's users out with a few requests.
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
import {
  countRequest,
  type RateDecision,
  type RateLimit,
  uncountRequest,
} from "../rate_limit/mod.ts";

export * from "./token.ts";

const WINDOW_MS = 600_000;
/** Wrong passwords one client (an IPv4 address, an IPv6 /64) may send one link in a window. */
export const WRONG_PER_CLIENT = 5;
/**
 * Wrong passwords one link takes in a window, from all clients together, before each client is
 * held to {@linkcode WRONG_PER_CLIENT_PAST_LINK}.
 */
export const WRONG_PER_LINK = 130;
/**
 * Wrong passwords a client may send a link in a window once the link is past its
 * {@linkcode WRONG_PER_LINK}: a person who mistyped twice is still heard on the third try.
 */
export const WRONG_PER_CLIENT_PAST_LINK = 3;

/** Wrong passwords counted on one link, from all clients (see {@linkcode unlockLink}). */
export const UNLOCK_PER_LINK: RateLimit = {
  name: "unlock_link",
  limit: WRONG_PER_LINK,
  windowMs: WINDOW_MS,
};

// Wrong passwords counted of one client on one link.
const UNLOCK_PER_CLIENT: RateLimit = {
  name: "unlock_link_client",
  limit: WRONG_PER_CLIENT,
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
 * Checks the attempt's password against the live protected link and returns the link, or throws
 * `LinkNotFoundError`, `NotProtectedError`, `TooManyGuessesError` or `WrongPasswordError`.
 * Wrong passwords are bounded per client ({@linkcode WRONG_PER_CLIENT}) and per link
 * ({@linkcode WRONG_PER_LINK}) in 10-minute windows; a client's first three tries are always
 * heard (docs/decisions/2026-11-24-unlock-guessing-bounds.md).
 */
export async function unlockLink(store: Store, attempt: UnlockAttempt): Promise<DatedLinkRecord> {
  const { slug, password } = attempt;
  const record = await getLiveLink(store, slug);
  if (record === null) throw new LinkNotFoundError(slug);
  if (record.passHash === null) throw new NotProtectedError(slug);
  const group = addressGroup(attempt.client);
  const mine = `${slug}\n${group}`;
  const byClient = await countRequest(store, UNLOCK_PER_CLIENT, mine);
  const takeBackClient = () => takeBack(store, UNLOCK_PER_CLIENT, mine, byClient);
  if (!byClient.allowed) {
    await takeBackClient();
    throw new TooManyGuessesError(WRONG_PER_CLIENT, WINDOW_MS, byClient.retryAfterSeconds);
  }
  const onLink = await countRequest(store, UNLOCK_PER_LINK, slug);
  const takeBackBoth = () =>
    Promise.all([takeBackClient(), takeBack(store, UNLOCK_PER_LINK, slug, onLink)]);
  // Past the link's bound, each client is held to 3 tries, not 5: a typo or two never keeps a
  // person from the right password, and each address of an attacker guesses less.
  if (!onLink.allowed && byClient.count > WRONG_PER_CLIENT_PAST_LINK) {
    await takeBackBoth();
    throw new TooManyGuessesError(
      WRONG_PER_CLIENT_PAST_LINK,
      WINDOW_MS,
      onLink.retryAfterSeconds,
    );
  }
  let right: boolean;
  try {
    right = await verifyPassword(password, record.passHash, { client: group });
  } catch (error) {
    await takeBackBoth(); // not checked (the hashing queue was full): not a guess
    throw error;
  }
  if (right) {
    await takeBackBoth();
    return record;
  }
  throw new WrongPasswordError();
}

/**
 * Takes back an attempt that turned out not to count. A store that fails it leaves one attempt
 * too many counted, never too few, and must not cost the answer (the cookie, or the 429).
 */
async function takeBack(
  store: Store,
  rule: RateLimit,
  client: string,
  counted: RateDecision,
): Promise<void> {
  try {
    await uncountRequest(store, rule, client, counted);
  } catch {
    // Counted one too many until the window ends: stricter, never looser.
  }
}
