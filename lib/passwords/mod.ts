/**
 * Password hashes: PBKDF2-SHA256, 600,000 iterations, a salt per link, in a self-describing
 * string `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64). Hashing runs off the event loop.
 * @module
 */
import { decodeBase64, encodeBase64 } from "../encoding.ts";

/** Iterations of new hashes. */
export const PBKDF2_ITERATIONS = 600_000;

const SCHEME = "pbkdf2-sha256";
const SALT_BYTES = 16;
const HASH_BITS = 256;
const encoder = new TextEncoder();

/**
 * Hashes `password` with a fresh salt, at {@linkcode PBKDF2_ITERATIONS} unless told otherwise
 * (tests that check many passwords). The count is kept in the hash, which is checked with it.
 */
export async function hashPassword(
  password: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${iterations}$${encodeBase64(salt)}$${encodeBase64(hash)}`;
}

/** Whether `password` matches `stored`, compared in constant time; `false` for a bad hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !Number.isSafeInteger(iterations) || iterations < 1) return false;
  if (saltText === undefined || hashText === undefined) return false;
  const expected = decodeBase64(hashText);
  const actual = await derive(password, decodeBase64(saltText), iterations);
  return constantTimeEqual(actual, expected);
}

/** Whether two byte arrays are equal, taking the same time wherever they differ. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i % b.length] ?? 0);
  return difference === 0;
}

async function derive(password: string, salt: Uint8Array, iterations: number) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}
