/**
 * Unlock tokens: the proof, kept in a cookie, that a reader gave a protected link's password.
 *
 * A token is `<id>.<expiresAt>.<mac>`: the link's id, the token's deadline (epoch ms, never past
 * the link's) and an HMAC-SHA256 of slug, id and deadline. It never holds the password.
 * @module
 */
import { decodeBase64, encodeBase64Url } from "../encoding.ts";
import { settingKey } from "../kv/keys.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";

const encoder = new TextEncoder();

/** The name of the unlock cookie of `slug`. */
export function unlockCookieName(slug: string): string {
  return `unlock_${slug}`;
}

/** Signs a token for the link `slug` with id `id`, valid until `expiresAt`. */
export async function signUnlockToken(
  key: CryptoKey,
  link: { slug: string; id: string },
  expiresAt: number,
): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(payload(link, expiresAt)));
  return `${link.id}.${expiresAt}.${encodeBase64Url(new Uint8Array(mac))}`;
}

/**
 * The link id a token for `slug` unlocks, or `null` when it is forged, tampered with, expired
 * at `now`, or made for another slug.
 */
export async function verifyUnlockToken(
  key: CryptoKey,
  slug: string,
  token: string,
  now: number,
): Promise<string | null> {
  const [id, expiresText, macText, extra] = token.split(".");
  if (!id || !expiresText || !macText || extra !== undefined) return null;
  const expiresAt = Number(expiresText);
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) return null;
  const valid = await crypto.subtle.verify(
    "HMAC",
    key,
    decodeBase64(macText) as BufferSource,
    encoder.encode(payload({ slug, id }, expiresAt)),
  );
  return valid ? id : null;
}

/**
 * {@linkcode loadUnlockKey} on first use, kept once loaded: a load that fails (the store down)
 * is tried again at the next use, so a service that starts while its store is down unlocks
 * links once it is up.
 */
export function unlockKeyOnUse(store: Store, secret?: string): () => Promise<CryptoKey> {
  let loading: Promise<CryptoKey> | null = null;
  return () =>
    loading ??= loadUnlockKey(store, secret).catch((error) => {
      loading = null;
      throw error;
    });
}

/**
 * The HMAC key of unlock tokens: from `secret` when set, else the one generated once and kept
 * in the store, so every instance on the store agrees.
 */
export async function loadUnlockKey(store: Store, secret?: string): Promise<CryptoKey> {
  const material = secret ?? await storedSecret(store);
  return await crypto.subtle.importKey(
    "raw",
    encoder.encode(material),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

async function storedSecret(store: Store): Promise<string> {
  const key = settingKey("cookie_secret");
  for (;;) {
    const existing = await store.kv.get<string>(key);
    if (typeof existing.value === "string") return existing.value;
    const fresh = encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    const result = await retryLocked(() =>
      store.kv.atomic().check(existing).set(key, fresh).commit()
    );
    if (result.ok) return fresh;
    // Another instance wrote it first: read theirs.
  }
}

function payload(link: { slug: string; id: string }, expiresAt: number): string {
  return `${link.slug}\n${link.id}\n${expiresAt}`;
}
