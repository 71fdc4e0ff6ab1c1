import { assertEquals } from "../../tests/_helpers/assert.ts";
import { pause } from "../kv/retry.ts";
import { LinkCache } from "./cache.ts";
import type { DatedLinkRecord } from "./record.ts";

const record: DatedLinkRecord = {
  id: "01HZZZZZZZZZZZZZZZZZZZZZZZ",
  slug: "early",
  url: "https://example.com/",
  title: "",
  note: "",
  passHash: null,
  createdAt: 0,
  expiresAt: Date.now() + 60_000,
};

Deno.test("what the cache held before its first reading of the epoch is forgotten then", async () => {
  const kv = await Deno.openKv(":memory:");
  const cache = new LinkCache();
  // Cached before the watch knows the epoch: a removal may have bumped it meanwhile.
  cache.set(record, "v1", cache.generation);
  cache.watch(kv, { pollMs: 10 });
  await pause(50);
  assertEquals(cache.get("early"), undefined);
  // From then on, only a change of the epoch clears it.
  cache.set(record, "v1", cache.generation);
  await pause(50);
  assertEquals(cache.get("early")?.versionstamp, "v1");
  await cache.unwatch();
  kv.close();
});
