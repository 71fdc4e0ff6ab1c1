import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { healthKey } from "../kv/keys.ts";
import { createStore, type Store } from "../kv/store.ts";
import { checkStore } from "./mod.ts";

/** A store whose every call never settles, as a store that hangs. */
function hungStore(): Store {
  const never = () => new Promise<never>(() => {});
  const kv = { get: never, set: never } as unknown as Deno.Kv;
  return createStore(kv, { ttlMs: 1000, now: () => 0 });
}

Deno.test("a store that answers a write and a read is healthy, its probe under this instance's key", async () => {
  await using store = await memoryStore();
  assertEquals(await checkStore(store, { instanceId: "one" }), { ok: true });
  const probe = await store.kv.get(healthKey("one"));
  assert(typeof probe.value === "string");
});

Deno.test("a store that fails is unhealthy, with the storage sentence", async () => {
  await using store = await memoryStore();
  store.kv.close();
  const health = await checkStore(store, { instanceId: "one" });
  assertEquals(health.ok, false);
  if (!health.ok) assertEquals(health.error, "storage is unavailable, try again shortly");
});

Deno.test("a store that hangs is unhealthy once the time bound passes", async () => {
  const started = performance.now();
  const health = await checkStore(hungStore(), { instanceId: "one", timeoutMs: 50 });
  const took = performance.now() - started;
  assertEquals(health.ok, false);
  if (!health.ok) assertEquals(health.error, "storage did not answer within 50 ms");
  assert(took >= 45 && took < 1000, `took ${took} ms`);
});
