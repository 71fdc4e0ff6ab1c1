import { assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { createLink } from "../links/create.ts";
import { createStore, type Store } from "../kv/store.ts";
import { readLiveLinks } from "./readings.ts";

const options = { serviceHost: "sho.rt" };

Deno.test("live links are read from the store's tally", async () => {
  await using store = await memoryStore();
  assertEquals(await readLiveLinks(store), 0);
  await createLink(store, { url: "example.com/a" }, options);
  await createLink(store, { url: "example.com/b" }, options);
  assertEquals(await readLiveLinks(store), 2);
});

Deno.test("live links read as null when the store fails or hangs", async () => {
  await using store = await memoryStore();
  store.kv.close();
  assertEquals(await readLiveLinks(store), null);
  const hung: Store = createStore(
    { get: () => new Promise(() => {}) } as unknown as Deno.Kv,
    { ttlMs: 1000, now: () => 0 },
  );
  assertEquals(await readLiveLinks(hung, { timeoutMs: 20 }), null);
});
