/**
 * Assertions for the tests, from `node:assert/strict`, under the names Deno developers know.
 * @module
 */
import assertStrict from "node:assert/strict";

/** Asserts `actual` deep-equals `expected`. */
export function assertEquals<T>(
  actual: unknown,
  expected: T,
  message?: string,
): asserts actual is T {
  assertStrict.deepStrictEqual(actual, expected, message);
}

/** Asserts `actual` is not deep-equal to `expected`. */
export function assertNotEquals(actual: unknown, expected: unknown, message?: string): void {
  assertStrict.notDeepStrictEqual(actual, expected, message);
}

/** Asserts `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  assertStrict.ok(value, message);
}

/** Asserts `text` contains `part`. */
export function assertStringIncludes(text: string, part: string, message?: string): void {
  assertStrict.ok(
    text.includes(part),
    message ?? `expected ${JSON.stringify(text.slice(0, 500))} to include ${JSON.stringify(part)}`,
  );
}

/** Asserts `text` does not contain `part`. */
export function assertNotIncludes(text: string, part: string, message?: string): void {
  assertStrict.ok(
    !text.includes(part),
    message ?? `expected the text not to include ${JSON.stringify(part)}`,
  );
}

/** Asserts `fn` rejects with an error of `type`, and returns it. */
export async function assertRejects<E extends Error>(
  fn: () => Promise<unknown>,
  type: new (...args: never[]) => E,
  includes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    assertStrict.ok(error instanceof type, `expected ${type.name}, got ${error}`);
    if (includes) assertStringIncludes((error as Error).message, includes);
    return error as E;
  }
  throw new assertStrict.AssertionError({ message: `expected ${type.name} to be thrown` });
}
