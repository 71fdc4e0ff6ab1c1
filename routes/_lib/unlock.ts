/**
 * Unlock cookies at the edge: reading the proofs a request carries, and setting one.
 * @module
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { DatedLinkRecord } from "../../lib/links/mod.ts";
import { DAY_MS } from "../../lib/tallies/kinds.ts";
import { signUnlockToken, unlockCookieName, verifyUnlockToken } from "../../lib/unlock/mod.ts";
import { cookieOptions } from "./cookie.ts";
import type { AppDeps } from "./env.ts";

const PREFIX = unlockCookieName("");

/**
 * The links this request has unlocked: slug to link id, from every valid unlock cookie it
 * carries. Forged, tampered or expired cookies count for nothing.
 */
export async function readUnlocks(c: Context, deps: AppDeps): Promise<Map<string, string>> {
  const unlocked = new Map<string, string>();
  const cookies = getCookie(c);
  const now = deps.store.now();
  await Promise.all(
    Object.entries(cookies)
      .filter(([name]) => name.startsWith(PREFIX) && name.length > PREFIX.length)
      .slice(0, 50)
      .map(async ([name, token]) => {
        const slug = name.slice(PREFIX.length);
        const id = await verifyUnlockToken(await deps.unlockKey(), slug, token, now);
        if (id !== null) unlocked.set(slug, id);
      }),
  );
  return unlocked;
}

/**
 * `Cache-Control` of an answer that may show a destination an unlock cookie revealed (`revealing`)
 * or not. Such an answer is never compressed, here (`compress` leaves `no-transform` alone) or by
 * a proxy: compressed beside text anyone can write (other links' notes and titles), its length
 * would tell a page elsewhere, guess by guess, whether it holds the next characters (BREACH).
 */
export function cacheControlOf(revealing: boolean): string {
  return revealing ? "no-store, no-transform" : "no-store";
}

/** Whether the request holds a valid unlock cookie for this very link. */
export async function isUnlocked(
  c: Context,
  deps: AppDeps,
  record: DatedLinkRecord,
): Promise<boolean> {
  const token = getCookie(c, unlockCookieName(record.slug));
  if (!token) return false;
  const id = await verifyUnlockToken(
    await deps.unlockKey(),
    record.slug,
    token,
    deps.store.now(),
  );
  return id === record.id;
}

// Browsers keep a cookie 400 days at most, and Hono refuses to set one for longer. A link lives
// a year at most, but one stored when a longer LINK_TTL_SECONDS was allowed may live on: its
// cookie lasts 399 days, and then it asks for its password again.
const MAX_COOKIE_MS = 399 * DAY_MS;

/** Sets the unlock cookie of `record`, valid until the link expires (399 days at most). */
export async function setUnlockCookie(
  c: Context,
  deps: AppDeps,
  record: DatedLinkRecord,
): Promise<void> {
  const now = deps.store.now();
  const until = Math.min(record.expiresAt, now + MAX_COOKIE_MS);
  const token = await signUnlockToken(await deps.unlockKey(), record, until);
  setCookie(
    c,
    unlockCookieName(record.slug),
    token,
    cookieOptions(deps.config, {
      maxAge: Math.max(1, Math.floor((until - now) / 1000)),
      expires: new Date(until),
    }),
  );
}
