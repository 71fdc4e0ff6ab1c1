/**
 * Reading many keys at once.
 * @module
 */

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
