/**
 * Password hashes: PBKDF2-SHA256, 600,000 iterations, a salt per link, in a self-describing
 * string `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64). Hashing runs off the event loop,
 * through one bounded queue per process (see {@linkcode HashQueue}).
 * @module
 */
import { decodeBase64, encodeBase64 } from "../encoding.ts";
import { BusyError } from "../errors.ts";

/** Iterations of new hashes. */
export const PBKDF2_ITERATIONS = 600_000;

const SCHEME = "pbkdf2-sha256";
const SALT_BYTES = 16;
const HASH_BITS = 256;
const encoder = new TextEncoder();

/**
 * A bound on password hashing: at most `concurrency` jobs run at once, and at most `capacity`
 * wait; a job past those is refused at once with {@linkcode BusyError} (503, `Retry-After`).
 * Each hash runs on a thread of its own, so with no bound a burst of them (a protected bulk
 * request is ten) takes every core from the event loop, and every request waits.
 */
export class HashQueue {
  #running = 0;
  #waiting: (() => void)[] = [];

  /** Builds a queue running `concurrency` jobs at once, with room for `capacity` waiting. */
  constructor(readonly concurrency: number, readonly capacity: number) {}

  /** Jobs running now. */
  get running(): number {
    return this.#running;
  }

  /** Jobs waiting now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `job` when a place is free; throws `BusyError` at once when none is, nor room to wait. */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#running < this.concurrency) {
      this.#running++;
    } else {
      if (this.#waiting.length >= this.capacity) throw new BusyError("password hashing");
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await job();
    } finally {
      // The place goes straight to the next job waiting, if any.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}

// One core is left to the event loop (measured: 48 hashes at once held /api/version 613 ms).
// 64 waiting is about 6 s of hashing at ~90 ms a hash on one core.
const HASH_CONCURRENCY = Math.max(1, (navigator.hardwareConcurrency ?? 2) - 1);
const HASH_CAPACITY = 64;

/** The queue every hash of this process goes through. */
export const hashing: HashQueue = new HashQueue(HASH_CONCURRENCY, HASH_CAPACITY);

/**
 * Hashes `password` with a fresh salt, at {@linkcode PBKDF2_ITERATIONS} unless told otherwise
 * (tests that check many passwords). The count is kept in the hash, which is checked with it.
 * Throws `BusyError` when the {@linkcode hashing} queue is full.
 */
export async function hashPassword(
  password: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<string> {
  return (await hashPasswords(password, 1, iterations))[0]!;
}

/**
 * `count` hashes of `password`, each with a salt of its own, made one after another as one job
 * of the {@linkcode hashing} queue: so a request that needs many is let in whole, or refused
 * (`BusyError`) before any is made.
 */
export async function hashPasswords(
  password: string,
  count: number,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<string[]> {
  return await hashing.run(async () => {
    const hashes: string[] = [];
    for (let i = 0; i < count; i++) {
      const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
      const hash = await derive(password, salt, iterations);
      hashes.push(`${SCHEME}$${iterations}$${encodeBase64(salt)}$${encodeBase64(hash)}`);
    }
    return hashes;
  });
}

/**
 * Whether `password` matches `stored`, compared in constant time; `false` for a bad hash.
 * Throws `BusyError` when the {@linkcode hashing} queue is full.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !Number.isSafeInteger(iterations) || iterations < 1) return false;
  if (saltText === undefined || hashText === undefined) return false;
  const expected = decodeBase64(hashText);
  const actual = await hashing.run(() => derive(password, decodeBase64(saltText), iterations));
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
