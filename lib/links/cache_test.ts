import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { cacheEpochKey, cacheSeenKey, cacheSeenPrefix, linkStatsKey } from "../kv/keys.ts";
import { pause } from "../pause.ts";
import { LinkCache } from "./cache.ts";
import { addRetirement } from "./retire.ts";
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

/** Bumps the epoch as a removal does. */
async function bump(kv: Deno.Kv): Promise<void> {
  await kv.atomic().sum(cacheEpochKey(), 1n).commit();
}

Deno.test("a removal waits until every other watching instance has cleared its cache", async () => {
  const kv = await Deno.openKv(":memory:");
  // The other instance is another process on one local file: a watch tells it nothing.
  const otherKv = withoutWatch(kv);
  const remover = new LinkCache();
  const other = new LinkCache();
  remover.watch(kv, { pollMs: 10 });
  other.watch(otherKv, { pollMs: 80 });
  await pause(150); // both have read the epoch once and said so
  other.set(record, "v1", other.generation);
  await bump(kv);
  // The other instance reads the epoch only every 80 ms: until then it still holds the link.
  assertEquals(other.get("early")?.versionstamp, "v1");
  const started = performance.now();
  assertEquals(await remover.seenEverywhere(kv), true);
  assertEquals(other.get("early"), undefined);
  assert(performance.now() - started < 500, "waited past the other instance's next reading");
  await remover.unwatch();
  await other.unwatch();
  kv.close();
});

/** `kv` as another process on the same file sees it: its watches never deliver a change. */
function withoutWatch(kv: Deno.Kv): Deno.Kv {
  return kvWith(kv, { watch: () => new ReadableStream() });
}

/** `kv` with the methods of `replaced` in place of its own, and the rest as they are. */
function kvWith(kv: Deno.Kv, replaced: Record<string, unknown>): Deno.Kv {
  return new Proxy(kv, {
    get(target, name) {
      if (typeof name === "string" && Object.hasOwn(replaced, name)) return replaced[name];
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("a removal waits for no instance that has stopped, and at most the timeout for a stuck one", async () => {
  const kv = await Deno.openKv(":memory:");
  const remover = new LinkCache();
  const stopped = new LinkCache();
  stopped.watch(kv, { pollMs: 10 });
  await pause(50);
  assertEquals((await Array.fromAsync(kv.list({ prefix: cacheSeenPrefix() }))).length, 1);
  await stopped.unwatch(); // says so: its entry goes
  assertEquals(await Array.fromAsync(kv.list({ prefix: cacheSeenPrefix() })), []);
  await bump(kv);
  await assertAnsweredWithin(100, remover.seenEverywhere(kv), true);

  // An instance killed a moment ago: its last word is fresh, and behind the epoch.
  await kv.set(cacheSeenKey("killed"), { epoch: 0n, at: Date.now() });
  const started = performance.now();
  assertEquals(await remover.seenEverywhere(kv, { timeoutMs: 100 }), false);
  assert(performance.now() - started >= 100);
  // Killed long ago: not waited for.
  await kv.set(cacheSeenKey("killed"), { epoch: 0n, at: Date.now() - 60_000 });
  await assertAnsweredWithin(100, remover.seenEverywhere(kv), true);
  kv.close();
});

Deno.test("a store that does not answer holds neither a removal nor a stop past its bound", async () => {
  const kv = await Deno.openKv(":memory:");
  const cache = new LinkCache();
  cache.watch(kv, { pollMs: 10 });
  await pause(50);
  // From now on the store takes every call and answers none.
  const never = () => new Promise(() => {});
  const hung = kvWith(kv, {
    get: never,
    set: never,
    delete: never,
    list: () => ({ [Symbol.asyncIterator]: () => ({ next: never }) }),
  });
  await assertAnsweredWithin(400, cache.seenEverywhere(hung, { timeoutMs: 200 }), false);
  const stopping = new LinkCache();
  stopping.watch(hung, { pollMs: 10 });
  await pause(20);
  await assertAnsweredWithin(2_500, stopping.unwatch(), undefined);
  await cache.unwatch();
  kv.close();
});

/** Asserts that `answer` settles within `ms` with `expected`. */
async function assertAnsweredWithin<T>(ms: number, answer: Promise<T>, expected: T): Promise<void> {
  const started = performance.now();
  assertEquals(await answer, expected);
  const took = performance.now() - started;
  assert(took < ms, `answered after ${took.toFixed(0)} ms`);
}

Deno.test("a watching instance says again every couple of seconds that it is there", async () => {
  const kv = await Deno.openKv(":memory:");
  const cache = new LinkCache();
  cache.watch(kv, { pollMs: 50 });
  await pause(100);
  const first = (await Array.fromAsync(kv.list<{ at: number }>({ prefix: cacheSeenPrefix() })))[0]!;
  await pause(2_200);
  const later = (await Array.fromAsync(kv.list<{ at: number }>({ prefix: cacheSeenPrefix() })))[0]!;
  assert(later.value.at - first.value.at >= 2_000, `${first.value.at} -> ${later.value.at}`);
  await cache.unwatch();
  kv.close();
});

Deno.test("an instance that has stopped leaves no word behind, whatever reading was under way", async () => {
  const kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 30; i++) {
    const cache = new LinkCache();
    cache.watch(kv, { pollMs: 0 });
    if (i % 2 === 1) await pause(i % 5); // else stopped while its first reading is under way
    await cache.unwatch();
    await pause(5); // a reading under way at the stop has landed by now
    assertEquals(await Array.fromAsync(kv.list({ prefix: cacheSeenPrefix() })), [], `stop ${i}`);
  }
  kv.close();
});

/** Retires the links named, in one commit, as a removal or a sweep does. */
async function retire(kv: Deno.Kv, slugs: string[]): Promise<void> {
  const atomic = kv.atomic();
  for (const slug of slugs) {
    const link = { id: `id-${slug}`, slug, expiresAt: 1 };
    addRetirement(atomic, link, await kv.get(linkStatsKey(link.id)));
  }
  assert((await atomic.commit()).ok);
}

/** A link cached under `slug`. */
function cacheLink(cache: LinkCache, slug: string): void {
  cache.set({ ...record, slug, id: `id-${slug}` }, "v1", cache.generation);
}

/** Two instances on one store, each having read the epoch once. */
async function pair(kv: Deno.Kv) {
  const remover = new LinkCache();
  const other = new LinkCache();
  remover.watch(kv, { pollMs: 10 });
  other.watch(withoutWatch(kv), { pollMs: 20 });
  await pause(100);
  return {
    remover,
    other,
    async [Symbol.asyncDispose]() {
      await remover.unwatch();
      await other.unwatch();
    },
  };
}

Deno.test("a removal drops only the slugs it removed from every other instance's cache", async () => {
  const kv = await Deno.openKv(":memory:");
  {
    await using instances = await pair(kv);
    const { remover, other } = instances;
    for (const slug of ["gone", "kept", "also-kept"]) cacheLink(other, slug);
    await retire(kv, ["gone"]);
    assertEquals(await remover.seenEverywhere(kv), true);
    assertEquals(other.get("gone"), undefined);
    assertEquals(other.get("kept")?.versionstamp, "v1");
    assertEquals(other.get("also-kept")?.versionstamp, "v1");
    // A sweep's many removals in one commit, and removals landing together.
    const swept = Array.from({ length: 300 }, (_, i) => `swept-${i}`);
    for (const slug of swept) cacheLink(other, slug);
    await Promise.all(
      [0, 50, 100, 150, 200, 250].map((at) => retire(kv, swept.slice(at, at + 50))),
    );
    assertEquals(await remover.seenEverywhere(kv), true);
    assertEquals(swept.filter((slug) => other.get(slug) !== undefined), []);
    assertEquals(other.size, 2);
  }
  kv.close();
});

Deno.test("an instance that cannot tell which slugs were removed drops its whole cache", async () => {
  const kv = await Deno.openKv(":memory:");
  {
    await using instances = await pair(kv);
    const { remover, other } = instances;
    // A removal whose log entry is gone (or never read): the epoch moved by more than the log says.
    cacheLink(other, "kept");
    await bump(kv);
    assertEquals(await remover.seenEverywhere(kv), true);
    assertEquals(other.size, 0);
    // More removals at once than are followed one by one.
    cacheLink(other, "kept");
    await retire(kv, Array.from({ length: 40 }, (_, i) => `many-${i}`));
    assertEquals(await remover.seenEverywhere(kv), true);
    assertEquals(other.get("kept")?.versionstamp, "v1");
    await kv.atomic().sum(cacheEpochKey(), 1_001n).commit();
    assertEquals(await remover.seenEverywhere(kv), true);
    assertEquals(other.size, 0);
  }
  kv.close();
});
