/**
 * A store over `:memory:` KV with a clock the test moves.
 * @module
 */
import { createStore, type Store } from "../../lib/kv/store.ts";
import { tallyKey } from "../../lib/kv/keys.ts";
import { readCount } from "../../lib/tallies/count.ts";

/** A test store; disposing it closes the KV. */
export interface TestStore extends Store, AsyncDisposable {
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
}

/** The start of every test clock: 2026-11-02T12:00:00Z. */
export const TEST_START = Date.UTC(2026, 10, 2, 12);

/** Opens a fresh in-memory store with a fake clock. */
export async function memoryStore(options: { ttlMs?: number } = {}): Promise<TestStore> {
  const kv = await Deno.openKv(":memory:");
  let clock = TEST_START;
  const store = createStore(kv, { ttlMs: options.ttlMs, now: () => clock });
  return {
    ...store,
    advance(ms) {
      clock += ms;
    },
    [Symbol.asyncDispose]() {
      try {
        kv.close();
      } catch {
        // A test that takes the store down has closed it already.
      }
      return Promise.resolve();
    },
  };
}

/** A service-wide tally as a number. */
export async function tally(store: Store, kind: string, name = ""): Promise<number> {
  return Number(readCount((await store.kv.get(tallyKey(kind, name))).value));
}

/** Every key under `prefix`. */
export async function keysUnder(store: Store, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of store.kv.list({ prefix })) keys.push(entry.key);
  return keys;
}
