import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { cacheEpochKey, cacheSeenKey, cacheSeenPrefix, linkStatsKey } from "../kv/keys.ts";
import { pause } from "../pause.ts";
import { LinkCache } from "./cache.ts";
import { RemovalWatch } from "./removal_watch.ts";
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

/** What each watching instance last said: the epoch it caught up with, and when. */
function seenEntries(kv: Deno.Kv): Promise<Deno.KvEntry<{ epoch: bigint; at: number }>[]> {
  return Array.fromAsync(kv.list<{ epoch: bigint; at: number }>({ prefix: cacheSeenPrefix() }));
}

/** Resolves once `holds` does, asked every millisecond; fails after ten seconds. */
async function until(holds: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const giveUp = performance.now() + 10_000;
  while (!(await holds())) {
    assert(performance.now() < giveUp, `never: ${what}`);
    await pause(1);
  }
}

/** Resolves once `count` instances have said which epoch they caught up with. */
function untilTold(kv: Deno.Kv, count: number): Promise<void> {
  return until(async () => (await seenEntries(kv)).length === count, `${count} instances told`);
}

Deno.test("what the cache held before its first reading of the epoch is forgotten then", async () => {
  const kv = await Deno.openKv(":memory:");
  const cache = new LinkCache();
  let clock = Date.now();
  const watch = new RemovalWatch(cache, kv, { pollMs: 10, now: () => clock });
  // Cached before the watch knows the epoch: a removal may have bumped it meanwhile.
  cache.set(record, "v1", cache.generation);
  watch.start();
  await untilTold(kv, 1);
  assertEquals(cache.get("early"), undefined);
  // From then on, only a change of the epoch clears it: not the readings that say so again.
  cache.set(record, "v1", cache.generation);
  clock += 2_000;
  await until(async () => (await seenEntries(kv))[0]?.value.at === clock, "a later reading");
  assertEquals(cache.get("early")?.versionstamp, "v1");
  await watch.stop();
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
  const remover = new RemovalWatch(new LinkCache(), kv, { pollMs: 10 });
  const other = new RemovalWatch(new LinkCache(), otherKv, { pollMs: 80 });
  remover.start();
  other.start();
  await untilTold(kv, 2); // both have read the epoch once and said so
  other.cache.set(record, "v1", other.cache.generation);
  await bump(kv);
  // The other instance reads the epoch only every 80 ms: until then it still holds the link.
  assertEquals(other.cache.get("early")?.versionstamp, "v1");
  // True, not the timeout's false: the wait ended at the other instance's next reading.
  assertEquals(await remover.waitForEveryInstance({ timeoutMs: 60_000 }), true);
  assertEquals(other.cache.get("early"), undefined);
  await remover.stop();
  await other.stop();
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
  const remover = new RemovalWatch(new LinkCache(), kv);
  const stopped = new RemovalWatch(new LinkCache(), kv, { pollMs: 10 });
  stopped.start();
  await untilTold(kv, 1);
  await stopped.stop(); // says so: its entry goes
  assertEquals(await seenEntries(kv), []);
  await bump(kv);
  // True, not the timeout's false: the stopped instance is not waited for.
  assertEquals(await remover.waitForEveryInstance({ timeoutMs: 60_000 }), true);

  // An instance killed a moment ago: its last word is fresh, and behind the epoch.
  await kv.set(cacheSeenKey("killed"), { epoch: 0n, at: Date.now() });
  const started = performance.now();
  assertEquals(await remover.waitForEveryInstance({ timeoutMs: 100 }), false);
  // Waited the timeout out, to the millisecond its timer keeps.
  assert(performance.now() - started >= 99, "it waited for the stuck instance");
  // Killed long ago: not waited for.
  await kv.set(cacheSeenKey("killed"), { epoch: 0n, at: Date.now() - 60_000 });
  assertEquals(await remover.waitForEveryInstance({ timeoutMs: 60_000 }), true);
  kv.close();
});

Deno.test("a store that does not answer holds neither a removal nor a stop past its bound", async () => {
  const kv = await Deno.openKv(":memory:");
  const watching = new RemovalWatch(new LinkCache(), kv, { pollMs: 10 });
  watching.start();
  await untilTold(kv, 1);
  // From now on the store takes every call and answers none.
  const never = () => new Promise(() => {});
  let writeAsked: () => void;
  const writing = new Promise<void>((resolve) => writeAsked = resolve);
  const hung = kvWith(kv, {
    get: never,
    set: () => {
      writeAsked();
      return never();
    },
    delete: never,
    list: () => ({ [Symbol.asyncIterator]: () => ({ next: never }) }),
  });
  const removing = new RemovalWatch(watching.cache, hung);
  await assertAnsweredWithin(400, removing.waitForEveryInstance({ timeoutMs: 200 }), false);
  const stopping = new RemovalWatch(new LinkCache(), hung, { pollMs: 10 });
  stopping.start();
  await writing; // its word is on its way to the store, which never takes it
  await assertAnsweredWithin(2_500, stopping.stop(), undefined);
  await watching.stop();
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
  let clock = Date.now();
  const watch = new RemovalWatch(new LinkCache(), kv, { pollMs: 10, now: () => clock });
  watch.start();
  await untilTold(kv, 1);
  const first = (await seenEntries(kv))[0]!;
  clock += 2_000;
  await until(async () => (await seenEntries(kv))[0]!.value.at !== first.value.at, "said again");
  const later = (await seenEntries(kv))[0]!;
  assert(later.value.at - first.value.at >= 2_000, `${first.value.at} -> ${later.value.at}`);
  await watch.stop();
  kv.close();
});

Deno.test("an instance that has stopped leaves no word behind, whatever reading was under way", async () => {
  const kv = await Deno.openKv(":memory:");
  for (let i = 0; i < 30; i++) {
    const watch = new RemovalWatch(new LinkCache(), kv, { pollMs: 0 });
    watch.start();
    if (i % 2 === 1) await pause(i % 5); // else stopped while its first reading is under way
    await watch.stop();
    await pause(5); // a reading under way at the stop has landed by now
    assertEquals(await seenEntries(kv), [], `stop ${i}`);
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
  const remover = new RemovalWatch(new LinkCache(), kv, { pollMs: 10 });
  const other = new RemovalWatch(new LinkCache(), withoutWatch(kv), { pollMs: 20 });
  remover.start();
  other.start();
  await untilTold(kv, 2);
  return {
    remover,
    other: other.cache,
    async [Symbol.asyncDispose]() {
      await remover.stop();
      await other.stop();
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
    assertEquals(await remover.waitForEveryInstance(), true);
    assertEquals(other.get("gone"), undefined);
    assertEquals(other.get("kept")?.versionstamp, "v1");
    assertEquals(other.get("also-kept")?.versionstamp, "v1");
    // A sweep's many removals in one commit, and removals landing together.
    const swept = Array.from({ length: 300 }, (_, i) => `swept-${i}`);
    for (const slug of swept) cacheLink(other, slug);
    await Promise.all(
      [0, 50, 100, 150, 200, 250].map((at) => retire(kv, swept.slice(at, at + 50))),
    );
    assertEquals(await remover.waitForEveryInstance(), true);
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
    assertEquals(await remover.waitForEveryInstance(), true);
    assertEquals(other.size, 0);
    // More removals at once than are followed one by one.
    cacheLink(other, "kept");
    await retire(kv, Array.from({ length: 40 }, (_, i) => `many-${i}`));
    assertEquals(await remover.waitForEveryInstance(), true);
    assertEquals(other.get("kept")?.versionstamp, "v1");
    await kv.atomic().sum(cacheEpochKey(), 1_001n).commit();
    assertEquals(await remover.waitForEveryInstance(), true);
    assertEquals(other.size, 0);
  }
  kv.close();
});
