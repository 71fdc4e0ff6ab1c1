/**
 * Reading many keys at once.
 * @module
 */
import { TimeSlices } from "../pause.ts";

/** Reads any number of `keys`, ten at a time (the store's limit), in their order. */
export async function getManyChunked(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<unknown>[]> {
  const chunks: Deno.KvKey[][] = [];
  for (let i = 0; i < keys.length; i += 10) chunks.push(keys.slice(i, i + 10));
  const results = await Promise.all(chunks.map((chunk) => kv.getMany(chunk)));
  return results.flat();
}

/** Options of {@linkcode readInSlices}. */
export interface ReadInSlicesOptions {
  /** Keys a group reads; default 100. */
  groupSize?: number;
  /** Groups read at once; default 8. */
  inFlight?: number;
}

/**
 * Reads `keys` a group at a time, a few groups at once, and hands each group's entries to `each`
 * in order, with the index of the group's first key, letting the event loop run what waits
 * between groups once a slice has had its time. Thousands of answers arriving together would hold
 * the loop while they all decode; a group at a time, one after another, would wait a round trip
 * to a remote store for each. Rejects with the first failed read; groups after it are not handed.
 */
export async function readInSlices(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
  each: (entries: Deno.KvEntryMaybe<unknown>[], from: number) => void,
  options: ReadInSlicesOptions = {},
): Promise<void> {
  const size = Math.max(1, options.groupSize ?? 100);
  const groups = Math.ceil(keys.length / size);
  const reading: Promise<Deno.KvEntryMaybe<unknown>[]>[] = [];
  let started = 0;
  const start = () => {
    const from = started++ * size;
    const read = getManyChunked(kv, keys.slice(from, from + size));
    // Awaited in turn below; a rejection before its turn is not left unhandled meanwhile.
    read.catch(() => {});
    reading.push(read);
  };
  while (started < Math.min(groups, Math.max(1, options.inFlight ?? 8))) start();
  const slices = new TimeSlices();
  for (let group = 0; group < groups; group++) {
    const entries = await reading.shift()!;
    if (started < groups) start();
    each(entries, group * size);
    if (slices.over) await slices.yield();
  }
}
