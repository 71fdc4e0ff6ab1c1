/**
 * Reading and changing `KvU64` counters, tolerant of values that are not numbers.
 * @module
 */

const U64 = 1n << 64n;
const NEGATIVE = 1n << 63n;

/**
 * A stored counter as a non-negative bigint. Anything that is not a count (a string left by an
 * older writer, a negative or wrapped-around value) reads as 0.
 */
export function readCount(value: unknown): bigint {
  if (value instanceof Deno.KvU64) return value.value >= NEGATIVE ? 0n : value.value;
  if (typeof value === "bigint") return value >= 0n && value < NEGATIVE ? value : 0n;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return 0n;
}

/** What `sum` adds to take `amount` away (sums wrap modulo 2^64). */
export function minus(amount: bigint): bigint {
  return (U64 - (amount % U64)) % U64;
}
