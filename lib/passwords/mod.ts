/**
 * Password hashes: PBKDF2-SHA256, 600,000 iterations, a salt per hash, in a self-describing
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

/** Who a hash is made for: the queue shares its places fairly among clients. */
export interface HashJobOptions {
  /** The client that asked for it, as rate limits count it (an IPv6 client by its /64). */
  client?: string;
}

// A job waiting for a place: started, or refused when a client with less waiting needs room.
interface Waiter {
  /** Its place in the order of arrival. */
  arrived: number;
  start(): void;
  refuse(error: BusyError): void;
}

/**
 * A bound on password hashing, in hashes: at most `concurrency` run at once, and at most
 * `capacity` wait. Each hash runs on a thread of its own, so with no bound a burst of them takes
 * every core from the event loop, and every request waits.
 *
 * Places are shared fairly among clients. A free place goes to the waiting client that has
 * asked for the fewest hashes since the queue was last idle, started and waiting (the longest
 * waiting among equals): a client asking for one waits only for the hashes running and those of
 * clients asking for no more, whatever others keep queued, and clients that keep the queue busy
 * take turns. When every place is taken, a client's hash still gets one if another client holds
 * at least two places more than it: that client's newest waiting hash is refused with
 * {@linkcode BusyError} (503, `Retry-After`) instead. Only when no client holds more than its
 * share is a hash refused at once.
 */
export class HashQueue {
  #running = 0;
  #waiting = 0;
  #arrivals = 0;
  // Each client's waiting hashes, oldest first.
  #queued = new Map<string, Waiter[]>();
  // Hashes started for each client since the queue was last idle.
  #started = new Map<string, number>();

  /** Builds a queue running `concurrency` hashes at once, with room for `capacity` waiting. */
  constructor(readonly concurrency: number, readonly capacity: number) {}

  /** Hashes running now. */
  get running(): number {
    return this.#running;
  }

  /** Hashes waiting now. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Hashes `client` has waiting now. */
  waitingOf(client: string): number {
    return this.#queued.get(client)?.length ?? 0;
  }

  /**
   * Runs `job`, one hash, when a place is free; throws `BusyError` when none is, nor room to
   * wait, or when it is pushed out of its place by a client with less waiting.
   */
  async run<T>(job: () => Promise<T>, options: HashJobOptions = {}): Promise<T> {
    const client = options.client ?? "";
    if (this.#running < this.concurrency) {
      this.#running++;
      this.#countStart(client);
    } else {
      if (this.#waiting >= this.capacity && !this.#makeRoomFor(client)) {
        throw new BusyError("password hashing");
      }
      await new Promise<void>((start, refuse) => {
        this.#wait(client, { arrived: this.#arrivals++, start, refuse });
      });
    }
    try {
      return await job();
    } finally {
      this.#startNext();
    }
  }

  #wait(client: string, waiter: Waiter): void {
    const waiting = this.#queued.get(client);
    if (waiting) waiting.push(waiter);
    else this.#queued.set(client, [waiter]);
    this.#waiting++;
  }

  #countStart(client: string): void {
    // Bounded: a flood of distinct clients forgets who was served, never a client's waiting hash.
    if (this.#started.size >= MAX_CLIENTS_COUNTED) this.#started.clear();
    this.#started.set(client, (this.#started.get(client) ?? 0) + 1);
  }

  // The place goes straight to the waiting client that has asked for the fewest hashes since
  // the queue was idle (started and waiting): one asking for more, or for longer, waits more.
  #startNext(): void {
    let next: string | undefined;
    let fewest = Infinity;
    let earliest = Infinity;
    for (const [client, waiting] of this.#queued) {
      const asked = (this.#started.get(client) ?? 0) + waiting.length;
      const arrived = waiting[0]!.arrived;
      if (asked < fewest || (asked === fewest && arrived < earliest)) {
        [next, fewest, earliest] = [client, asked, arrived];
      }
    }
    if (next === undefined) {
      this.#running--;
      if (this.#running === 0) this.#started.clear();
      return;
    }
    const waiting = this.#queued.get(next)!;
    const waiter = waiting.shift()!;
    if (waiting.length === 0) this.#queued.delete(next);
    this.#waiting--;
    this.#countStart(next);
    waiter.start();
  }

  // Refuses the newest waiting hash of the client holding the most places, when it holds more
  // than one more than `client` would: so one client never keeps others out.
  #makeRoomFor(client: string): boolean {
    const mine = this.waitingOf(client);
    let largest: string | undefined;
    let most = 0;
    for (const [other, waiting] of this.#queued) {
      if (waiting.length > most) [largest, most] = [other, waiting.length];
    }
    if (largest === undefined || most <= mine + 1) return false;
    const waiting = this.#queued.get(largest)!;
    const pushed = waiting.pop()!;
    if (waiting.length === 0) this.#queued.delete(largest);
    this.#waiting--;
    pushed.refuse(new BusyError("password hashing"));
    return true;
  }
}

// Clients whose started hashes the queue keeps count of in one busy spell, at most.
const MAX_CLIENTS_COUNTED = 10_000;

// One core is left to the event loop (measured: 48 hashes at once held /api/version 613 ms).
// 64 waiting is about 6 s of hashing at ~90 ms a hash on one core; a client new to a busy queue
// waits only for the hashes running.
const HASH_CONCURRENCY = Math.max(1, (navigator.hardwareConcurrency ?? 2) - 1);
const HASH_CAPACITY = 64;

/** The queue every hash of this process goes through. */
export const hashing: HashQueue = new HashQueue(HASH_CONCURRENCY, HASH_CAPACITY);

/** Options of {@linkcode hashPassword}. */
export interface HashPasswordOptions extends HashJobOptions {
  /** PBKDF2 iterations; default {@linkcode PBKDF2_ITERATIONS} (tests that check many use fewer). */
  iterations?: number;
}

/**
 * Hashes `password` with a fresh salt, at {@linkcode PBKDF2_ITERATIONS} unless told otherwise.
 * The count is kept in the hash, which is checked with it. Throws `BusyError` when the
 * {@linkcode hashing} queue has no place for `options.client`.
 */
export async function hashPassword(
  password: string,
  options: HashPasswordOptions = {},
): Promise<string> {
  const iterations = options.iterations ?? PBKDF2_ITERATIONS;
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await hashing.run(() => derive(password, salt, iterations), options);
  return `${SCHEME}$${iterations}$${encodeBase64(salt)}$${encodeBase64(hash)}`;
}

/**
 * Whether `password` matches `stored`, compared in constant time; `false` for a bad hash.
 * Throws `BusyError` when the {@linkcode hashing} queue has no place for `options.client`.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  options: HashJobOptions = {},
): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !Number.isSafeInteger(iterations) || iterations < 1) return false;
  if (saltText === undefined || hashText === undefined) return false;
  const expected = decodeBase64(hashText);
  const actual = await hashing.run(
    () => derive(password, decodeBase64(saltText), iterations),
    options,
  );
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
