import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore, tally, type TestStore } from "../../tests/_helpers/store.ts";
import { BOT_UA, DESKTOP_UA as DESKTOP, MOBILE_UA, record, visit } from "../../testing/visits.ts";
import { type Faults, faultyKv } from "../../tests/_helpers/faults.ts";
import { linkStatsKey, tallyRankedAtKey } from "../kv/keys.ts";
import { createLink } from "../links/create.ts";
import { readCounters } from "../links/read.ts";
import { removeLink } from "../links/remove.ts";
import {
  CLICK_TALLY,
  COUNTRY_TALLY,
  DAY_CLICK_TALLY,
  DAY_MS,
  DEVICE_TALLY,
  REFERRER_TALLY,
} from "../tallies/kinds.ts";
import { ClickBuffer } from "./buffer.ts";
import { readJournalClicks } from "./journal.ts";
import type { ClickBufferOptions } from "./options.ts";
import { CLICKS_PER_COMMIT } from "./write_clicks.ts";

const options = { serviceHost: "sho.rt" };

/** The clicks stored for `link`. */
async function clicksOf(store: TestStore, link: { id: string }): Promise<number | undefined> {
  return (await readCounters(store, [link.id]))[0]?.clicks;
}

Deno.test("a flush writes clicks, last use, and every breakdown", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "hit" }, options);
  const buffer = new ClickBuffer(store);
  record(buffer, link, visit());
  record(buffer, link, visit({ referer: "https://www.news.example/a" }));
  store.advance(500);
  record(buffer, link, visit({ userAgent: MOBILE_UA, client: "2a00:1450:4001:81b::200e" }));
  assertEquals(await tally(store, CLICK_TALLY), 0, "nothing is written on the request path");
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  const [counters] = await readCounters(store, [link.id]);
  assertEquals(counters, { clicks: 3, lastUsedAt: store.now() });
  assertEquals(await tally(store, CLICK_TALLY), 3);
  assertEquals(await tally(store, DAY_CLICK_TALLY, "2026-11-02"), 3);
  assertEquals(await tally(store, REFERRER_TALLY, "direct"), 2);
  assertEquals(await tally(store, REFERRER_TALLY, "news.example"), 1);
  assertEquals(await tally(store, DEVICE_TALLY, "desktop"), 2);
  assertEquals(await tally(store, DEVICE_TALLY, "mobile"), 1);
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 2);
  assertEquals(await tally(store, COUNTRY_TALLY, "DE"), 1);
});

Deno.test("a visit keeps the first 256 characters of its User-Agent, 512 of its Referer", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "long" }, options);
  const buffer = new ClickBuffer(store);
  const userAgent = DESKTOP + " x".repeat(30_000);
  const referer = "https://long.example/" + "p".repeat(60_000);
  // Visitors that differ only past what is read are counted under the same names, and no visit
  // keeps what it was sent: a long one takes what a short one does.
  record(buffer, link, visit({ userAgent: userAgent + "1", referer: referer + "1" }));
  const one = buffer.pendingBytes;
  record(buffer, link, visit({ userAgent: userAgent + "2", referer: referer + "2" }));
  const long = buffer.pendingBytes - one;
  record(buffer, link, visit({ userAgent: DESKTOP, referer: "https://long.example/" }));
  assertEquals(buffer.pending, 3);
  assertEquals(long, buffer.pendingBytes - one - long, "a long visit takes what a short one does");
  assert(long < 100, `a visit takes a few pointers, not its headers: ${long} bytes`);
  await buffer.flush();
  assertEquals(await clicksOf(store, link), 3);
  assertEquals(await tally(store, DEVICE_TALLY, "desktop"), 3);
  assertEquals(await tally(store, REFERRER_TALLY, "long.example"), 3);
});

Deno.test("a bot visit counts only under the bot device", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "bot" }, options);
  const buffer = new ClickBuffer(store);
  record(buffer, link, visit({ userAgent: BOT_UA }));
  await buffer.flush();
  assertEquals((await readCounters(store, [link.id]))[0], { clicks: 0, lastUsedAt: null });
  assertEquals(await tally(store, CLICK_TALLY), 0);
  assertEquals(await tally(store, DEVICE_TALLY, "bot"), 1);
  assertEquals(await tally(store, REFERRER_TALLY, "direct"), 0);
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 0);
});

Deno.test("a counter that is not a number reads as 0 and is repaired on the next click", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "odd" }, options);
  const key = linkStatsKey(link.id);
  const stats = (await store.kv.get<{ shares: Record<string, unknown> }>(key)).value!;
  await store.kv.set(key, { ...stats, shares: { ...stats.shares, [CLICK_TALLY]: { "": "lots" } } });
  assertEquals(await clicksOf(store, link), 0);
  const buffer = new ClickBuffer(store);
  record(buffer, link, visit());
  await buffer.flush();
  const stored = await store.kv.get<{ shares: Record<string, Record<string, unknown>> }>(key);
  assertEquals(stored.value?.shares[CLICK_TALLY]?.[""], 1);
  assertEquals(await clicksOf(store, link), 1);
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(await clicksOf(store, link), 2);
});

Deno.test("visits of a link removed before the flush are dropped from every figure", async () => {
  await using store = await memoryStore();
  const kept = await createLink(store, { url: "example.com/k", slug: "kept" }, options);
  const gone = await createLink(store, { url: "example.com/g", slug: "gone" }, options);
  const buffer = new ClickBuffer(store);
  record(buffer, kept, visit());
  record(buffer, gone, visit());
  record(buffer, gone, visit({ userAgent: BOT_UA }));
  await removeLink(store, "gone");
  await buffer.flush();
  assertEquals(await tally(store, CLICK_TALLY), 1);
  assertEquals(await tally(store, DEVICE_TALLY, "desktop"), 1);
  assertEquals(await tally(store, DEVICE_TALLY, "bot"), 0);
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 1);
  assertEquals((await store.kv.get(linkStatsKey(gone.id))).value, null);
});

Deno.test("a flush of thousands of links splits into commits within the store's limits", async () => {
  await using store = await memoryStore();
  const links = [];
  for (let i = 0; i < 1500; i++) {
    links.push(await createLink(store, { url: `example.com/${i}` }, options));
  }
  // A commit of clicks 250 links: a journal a few µs a link, the commit's own cost shared.
  const chunks: number[] = [];
  const buffer = new ClickBuffer(store, { onFlushed: (outcome) => chunks.push(outcome.clicks) });
  for (const [i, link] of links.entries()) {
    record(buffer, link, visit({ referer: `https://site${i % 40}.example/` }));
    record(
      buffer,
      link,
      visit({ userAgent: MOBILE_UA, client: `2a00:1450:4001:81b::${i.toString(16)}` }),
    );
  }
  await buffer.flush();
  assertEquals(chunks, Array(6).fill(500));
  assertEquals(buffer.pending, 0);
  assertEquals(await tally(store, CLICK_TALLY), 3000);
  assertEquals(await tally(store, DEVICE_TALLY, "mobile"), 1500);
  assertEquals(await tally(store, REFERRER_TALLY, "site7.example"), 38);
  const counters = await readCounters(store, links.map((link) => link.id));
  assert(counters.every((c) => c.clicks === 2));
});

Deno.test("a flush writes links in the order of their figures in the store, not of their visits", async () => {
  await using store = await memoryStore();
  const links = [];
  for (let i = 0; i < 25; i++) {
    links.push(await createLink(store, { url: `example.com/${i}` }, options));
  }
  const written: string[] = [];
  const buffer = new ClickBuffer({ ...store, kv: statsWritesOf(store.kv, written) });
  // Visited in an order of their own: the last link created first, then every other one.
  const visited = [...links].reverse();
  for (const link of [...visited.filter((_, i) => i % 2), ...visited.filter((_, i) => !(i % 2))]) {
    record(buffer, link, visit());
  }
  await buffer.flush();
  assertEquals(written, links.map((link) => link.id).sort());
  assertEquals(await tally(store, CLICK_TALLY), 25);
});

/** `kv`, telling `written` the id of each link whose figures a commit sets, in order. */
function statsWritesOf(kv: Deno.Kv, written: string[]): Deno.Kv {
  const [collection] = linkStatsKey("");
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "atomic") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const atomic = target.atomic();
        const set = atomic.set.bind(atomic);
        atomic.set = (key, item, setOptions) => {
          if (key[0] === collection) written.push(String(key[1]));
          return set(key, item, setOptions);
        };
        return atomic;
      };
    },
  });
}

Deno.test("a flush large enough for the biggest commits stays within the store's limits", async () => {
  await using store = await memoryStore();
  const links = [];
  for (let i = 0; i < 9_000; i++) {
    links.push(await createLink(store, { url: `example.com/${i}` }, options));
  }
  // Commits as large as a flush ever made, so that the mutation budget, not the link count, is
  // what bounds these commits.
  const buffer = new ClickBuffer(store, {
    clicksPerCommit: CLICKS_PER_COMMIT,
    figuresPerCommit: 40,
  });
  for (const [i, link] of links.entries()) {
    // Several shares a link, each a sum in its commit.
    record(buffer, link, visit({ referer: `https://site${i % 300}.example/` }));
    record(buffer, link, visit({ userAgent: MOBILE_UA, client: `81.2.69.${i % 250}` }));
    record(buffer, link, visit({ client: `2a00:1450:4001:81b::${i.toString(16)}` }));
  }
  // And a few links visited from pages on long host names, each name a key of its own.
  const long = (i: number) => `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.h${i}.example`;
  for (const [i, link] of links.slice(0, 1_000).entries()) {
    for (let r = 0; r < 4; r++) {
      record(buffer, link, visit({ referer: `https://${long(i * 4 + r)}/page` }));
    }
  }
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals(await tally(store, CLICK_TALLY), 31_000);
  assertEquals(await tally(store, REFERRER_TALLY, "site7.example"), 30);
  assertEquals(await tally(store, REFERRER_TALLY, long(3_999)), 1);
  const counters = await readCounters(store, [links[0]!.id, links[8_999]!.id]);
  assertEquals(counters.map((c) => c.clicks), [7, 3]);
});

Deno.test("a failed flush is logged and retried, losing nothing", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "retry" }, options);
  const faults = { commits: 1, down: false };
  const flaky = faultyKv(store.kv, faults);
  const logged: string[] = [];
  const buffer = new ClickBuffer({ ...store, kv: flaky }, {
    log: (message) => logged.push(message),
  });
  record(buffer, link, visit());
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(logged, ["click flush failed, will retry"]);
  assertEquals(faults.commits, 0);
  assertEquals(buffer.pending, 2);
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals(await clicksOf(store, link), 3);
});

Deno.test("a failed flush of a link written before counts its visits once, on the retry", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "again" }, options);
  const faults = { commits: 0, down: false };
  const buffer = flakyBuffer(store, faults);
  record(buffer, link, visit());
  await buffer.flush(); // the link's figures are now this process's own
  record(buffer, link, visit());
  record(buffer, link, visit({ referer: "https://news.example/" }));
  faults.commits = 1;
  await buffer.flush();
  assertEquals(buffer.pending, 2);
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals(await clicksOf(store, link), 3);
  assertEquals(await tally(store, CLICK_TALLY), 3);
  assertEquals(await tally(store, REFERRER_TALLY, "news.example"), 1);
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(await clicksOf(store, link), 4);
  assertEquals(await tally(store, CLICK_TALLY), 4);
});

Deno.test("a flush whose commit lands but fails to answer counts its visits once", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "landed" }, options);
  const faults: Faults = { commits: 0, down: false, landing: 1 };
  const logged: string[] = [];
  const buffer = new ClickBuffer({ ...store, kv: faultyKv(store.kv, faults) }, {
    log: (message) => logged.push(message),
  });
  record(buffer, link, visit());
  record(buffer, link, visit({ referer: "https://news.example/" }));
  await buffer.flush();
  assertEquals(logged, ["click flush failed, will retry"]);
  assertEquals(buffer.pending, 2, "kept: the flush cannot know the commit landed");
  const journaled = await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }));
  assertEquals(journaled.flatMap((part) => readJournalClicks(part.value)), [link.id, 2], "landed");
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals(await clicksOf(store, link), 2);
  assertEquals(await tally(store, CLICK_TALLY), 2);
  assertEquals(await tally(store, REFERRER_TALLY, "news.example"), 1);
  // The names the landed commit counted take their places in the ranking all the same.
  const ranked = await store.kv.get(tallyRankedAtKey(REFERRER_TALLY, "news.example"));
  assertEquals(ranked.value, 1n);
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(await clicksOf(store, link), 3);
  assertEquals(await tally(store, CLICK_TALLY), 3);
});

Deno.test("a commit that landed unanswered is found under another instance's later writes", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "shared" }, options);
  const faults: Faults = { commits: 0, down: false, landing: 1 };
  const buffer = flakyBuffer(store, faults);
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(buffer.pending, 1);
  // Another instance counts 5 clicks of its own meanwhile.
  const other = new ClickBuffer(store, { log: () => {} });
  for (let i = 0; i < 5; i++) record(other, link, visit());
  await other.flush();
  assertEquals(await clicksOf(store, link), 6);
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals(await clicksOf(store, link), 6);
  assertEquals(await tally(store, CLICK_TALLY), 6);
});

Deno.test("a commit that landed, then answered that its check failed, counts once", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "relock" }, options);
  const faults: Faults = { commits: 0, down: false, landingRefused: 1 };
  const buffer = flakyBuffer(store, faults);
  record(buffer, link, visit());
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals(await clicksOf(store, link), 2);
  assertEquals(await tally(store, CLICK_TALLY), 2);
});

Deno.test("visits whose commit failed unlanded, then landed unanswered, count once", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "twice" }, options);
  const faults: Faults = { commits: 1, down: false };
  const buffer = flakyBuffer(store, faults);
  record(buffer, link, visit());
  await buffer.flush(); // failed, nothing written
  assertEquals(await clicksOf(store, link), 0);
  faults.landing = 1;
  await buffer.flush(); // written, unanswered
  assertEquals(buffer.pending, 1);
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals(await clicksOf(store, link), 1);
  assertEquals(await tally(store, CLICK_TALLY), 1);
});

Deno.test("a failed flush's batch is retried before a batch midnight set aside during it", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "night" }, options);
  const other = await createLink(store, { url: "example.com/2", slug: "other" }, options);
  const faults: Faults = { commits: 1, down: false };
  const buffer = flakyBuffer(store, faults);
  record(buffer, link, visit());
  onFirstCommit(faults, () => {
    // While the failing commit is under way: a visit to its link waits for the next batch,
    // then midnight passes, and that batch is set aside for the next flush.
    record(buffer, link, visit());
    store.advance(DAY_MS);
    record(buffer, other, visit());
  });
  await buffer.flush();
  assertEquals(await clicksOf(store, link), 0, "nothing landed");
  await buffer.flush();
  assertEquals(buffer.pending, 0);
  assertEquals((await readCounters(store, [link.id, other.id])).map((c) => c.clicks), [2, 1]);
  assertEquals(await tally(store, CLICK_TALLY), 3);
});

Deno.test("visits on either side of midnight count on their own days", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "late" }, options);
  const buffer = new ClickBuffer(store);
  store.advance(12 * 3600_000 - 1000); // 23:59:59 on 2 November
  record(buffer, link, visit());
  store.advance(2000);
  record(buffer, link, visit());
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(await tally(store, DAY_CLICK_TALLY, "2026-11-02"), 1);
  assertEquals(await tally(store, DAY_CLICK_TALLY, "2026-11-03"), 2);
});

Deno.test("stop flushes what is left", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "stop" }, options);
  const buffer = new ClickBuffer(store);
  buffer.start(60_000);
  for (let i = 0; i < 100; i++) record(buffer, link, visit({ client: `81.2.69.${i}` }));
  await buffer.stop();
  assertEquals(await clicksOf(store, link), 100);
});

Deno.test("a large buffer starts a flush without waiting for the timer", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "big" }, options);
  const buffer = new ClickBuffer(store, { flushThreshold: 10 });
  for (let i = 0; i < 9; i++) record(buffer, link, visit({ client: `81.2.69.${i}` }));
  await Promise.resolve(); // the turn in which a flush the threshold asks for starts
  await buffer.idle();
  assertEquals(buffer.pending, 9); // below the threshold, and no timer: nothing written
  record(buffer, link, visit({ client: "81.2.69.9" }));
  await Promise.resolve();
  await buffer.idle();
  assertEquals(buffer.pending, 0);
  assertEquals(await clicksOf(store, link), 10);
});

Deno.test("a link another instance wrote since this one's last flush is read again, losing nothing", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "both" }, options);
  const one = new ClickBuffer(store);
  const two = new ClickBuffer(store);
  one.recordVisit(link, DESKTOP, "", "81.2.69.160", "");
  await one.flush(); // one now remembers the figures it wrote
  two.recordVisit(link, DESKTOP, "", "81.2.69.161", "");
  two.recordVisit(link, DESKTOP, "", "81.2.69.162", "");
  await two.flush();
  one.recordVisit(link, DESKTOP, "", "81.2.69.163", "");
  await one.flush(); // its remembered figures are stale: the check fails, it reads again
  assertEquals(await clicksOf(store, link), 4);
  assertEquals(await tally(store, CLICK_TALLY), 4);
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 4);
  await removeLink(store, "both");
  one.recordVisit(link, DESKTOP, "", "81.2.69.160", "");
  await one.flush(); // removed meanwhile: the visit is dropped, not written to stale figures
  assertEquals(await tally(store, CLICK_TALLY), 0);
  assertEquals((await store.kv.get(linkStatsKey(link.id))).value, null);
});

Deno.test("the wait of the oldest unwritten visit grows until a flush writes it", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "wait" }, options);
  const faults = { commits: 1, down: false };
  const buffer = new ClickBuffer({ ...store, kv: faultyKv(store.kv, faults) }, {
    log: () => {},
  });
  assertEquals(buffer.waitingMs(), 0);
  record(buffer, link, visit());
  store.advance(600);
  record(buffer, link, visit({ userAgent: MOBILE_UA }));
  assertEquals(buffer.waitingMs(), 600);
  await buffer.flush(); // fails, keeps the visits
  store.advance(900);
  record(buffer, link, visit({ referer: "https://news.example/" }));
  assertEquals(buffer.waitingMs(), 1_500, "the failed batch waits on, the oldest first");
  await buffer.flush();
  assertEquals(buffer.waitingMs(), 0);
  store.advance(300);
  record(buffer, link, visit());
  assertEquals(buffer.waitingMs(), 0, "a visit is waiting from the moment it is recorded");
  store.advance(250);
  assertEquals(buffer.waitingMs(), 250);
  assertEquals(buffer.waitingMs(store.now() - 1_000), 0, "a clock set back: no negative wait");
});

/** A buffer over `store` whose commits fail as `faults` say, its failures not logged. */
function flakyBuffer(store: TestStore, faults: Faults): ClickBuffer {
  return new ClickBuffer({ ...store, kv: faultyKv(store.kv, faults) }, { log: () => {} });
}

async function linksOf(store: TestStore, count: number) {
  const links = [];
  for (let i = 0; i < count; i++) {
    links.push(await createLink(store, { url: `example.com/${i}`, slug: `link-${i}` }, options));
  }
  return links.sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * `count` links visited once each, in a buffer over `store` whose commits go through a KV that
 * fails as `faults` says (by default, never).
 */
async function visitedLinks(
  store: TestStore,
  count: number,
  faults: Faults = { commits: 0, down: false },
  bufferOptions: ClickBufferOptions = {},
) {
  const links = await linksOf(store, count);
  // Ten links a commit of clicks, so that a test of a few links sees a flush of several commits.
  const buffer = new ClickBuffer({ ...store, kv: faultyKv(store.kv, faults) }, {
    clicksPerCommit: 10,
    ...bufferOptions,
  });
  for (const link of links) record(buffer, link, visit());
  return { links, buffer, faults };
}

/** Runs `act` as the first commit starts, before it reaches the store. */
function onFirstCommit(faults: Faults, act: () => void): void {
  let started = false;
  faults.onCommit = () => {
    if (started) return;
    started = true;
    act();
  };
}

/** The timers a buffer sets, run by hand; disposing it puts the real ones back. */
function handTimers() {
  const timers: { tick: () => void; ms: number; cleared: boolean }[] = [];
  const [setTimer, clearTimer] = [globalThis.setInterval, globalThis.clearInterval];
  globalThis.setInterval = ((tick: () => void, ms: number) => {
    timers.push({ tick, ms, cleared: false });
    return { timer: timers.length - 1 }; // no real timer's id, so the real clear ignores it
  }) as unknown as typeof setInterval;
  globalThis.clearInterval = ((id?: { timer: number }) => {
    if (id !== undefined) timers[id.timer]!.cleared = true;
  }) as typeof clearInterval;
  return {
    timers,
    [Symbol.dispose]() {
      [globalThis.setInterval, globalThis.clearInterval] = [setTimer, clearTimer];
    },
  };
}

Deno.test("a visit to a link the flush under way has not taken yet is written by that flush", async () => {
  await using store = await memoryStore();
  const { links, buffer, faults } = await visitedLinks(store, 15);
  // The first commit writes ten links; the eleventh is taken too, to know the ten are all.
  onFirstCommit(faults, () => {
    record(buffer, links[0]!, visit({ userAgent: MOBILE_UA })); // written: waits for the next
    record(buffer, links[10]!, visit({ userAgent: MOBILE_UA })); // taken ahead: waits too
    record(buffer, links[14]!, visit({ userAgent: MOBILE_UA })); // not yet: joins this flush
  });
  await buffer.flush();
  const clicks = async () =>
    (await readCounters(store, links.map((l) => l.id))).map((c) => c.clicks);
  const first = await clicks();
  assertEquals(first[14], 2, "the late visit went with its link");
  assertEquals([first[0], first[10]], [1, 1]);
  assertEquals(buffer.pending, 2, "the visits to taken links wait, once each");
  await buffer.flush();
  const second = await clicks();
  assertEquals([second[0], second[10], second[14]], [2, 2, 2]);
  assertEquals(await tally(store, CLICK_TALLY), 18, "every visit counted once");
  assertEquals(await tally(store, DEVICE_TALLY, "mobile"), 3);
});

Deno.test("a visit that joined a flush whose commit then fails is kept and written once", async () => {
  await using store = await memoryStore();
  // The first commit passes, the second (the last five links) fails.
  const { links, buffer, faults } = await visitedLinks(store, 15, {
    commits: 1,
    passing: 1,
    down: false,
  }, { log: () => {} });
  onFirstCommit(faults, () => record(buffer, links[14]!, visit({ userAgent: MOBILE_UA })));
  await buffer.flush();
  assertEquals(await tally(store, CLICK_TALLY), 10);
  assertEquals(buffer.pending, 6, "the failed links' visits, the joined one among them");
  await buffer.flush();
  assertEquals(await clicksOf(store, links[14]!), 2);
  assertEquals(await tally(store, CLICK_TALLY), 16);
});

Deno.test("a visit after midnight does not join the flush of the day before", async () => {
  await using store = await memoryStore();
  const { links, buffer, faults } = await visitedLinks(store, 15);
  onFirstCommit(faults, () => {
    store.advance(12 * 3_600_000); // the test clock starts at noon
    record(buffer, links[14]!, visit());
  });
  await buffer.flush();
  assertEquals(buffer.pending, 1, "the next day's visit waits for its own batch");
  await buffer.flush();
  assertEquals(await tally(store, DAY_CLICK_TALLY, "2026-11-02"), 15);
  assertEquals(await tally(store, DAY_CLICK_TALLY, "2026-11-03"), 1);
});

Deno.test("visits join a flush only within the bound on visitors waiting", async () => {
  await using store = await memoryStore();
  // A bound of the bytes of the fifteen links' visits and five referrers more.
  const visitor = (i: number) => visit({ referer: `https://r${i}.example/` });
  const countryLookup = () => "GB";
  await using other = await memoryStore();
  const sizing = new ClickBuffer(other, { countryLookup });
  const [first, second] = await linksOf(other, 2);
  record(sizing, first!, visit());
  const one = sizing.pendingBytes;
  record(sizing, first!, visitor(0));
  const more = sizing.pendingBytes - one;
  record(sizing, second!, visit());
  const perLink = sizing.pendingBytes - one - more;
  assertEquals(perLink, one, "every link's first visit takes as many bytes");
  const { links, buffer, faults } = await visitedLinks(store, 15, undefined, {
    maxPendingBytes: 15 * perLink + 5 * more,
    countryLookup,
  });
  onFirstCommit(faults, () => {
    // Ten visits from new referrers of a link still to be written: five join, five wait.
    for (let i = 0; i < 10; i++) record(buffer, links[14]!, visitor(i));
  });
  await buffer.flush();
  assertEquals(await clicksOf(store, links[14]!), 6);
  assertEquals(buffer.pending, 5);
  assertEquals(buffer.dropped, 0);
  await buffer.flush();
  assertEquals(await tally(store, CLICK_TALLY), 25);
});

Deno.test("the wait is the oldest unwritten visit's, link by link", async () => {
  await using store = await memoryStore();
  const links = await linksOf(store, 12);
  const faults: Faults = { commits: 0, down: false };
  const buffer = new ClickBuffer({ ...store, kv: faultyKv(store.kv, faults) }, {
    clicksPerCommit: 10,
  });
  for (const link of links.slice(0, 10)) record(buffer, link, visit());
  store.advance(700);
  for (const link of links.slice(10)) record(buffer, link, visit());
  assertEquals(buffer.waitingMs(), 700);
  const seen: number[] = [];
  faults.onCommit = () => {
    store.advance(100);
    seen.push(buffer.waitingMs());
  };
  await buffer.flush();
  // Before the first commit the oldest links wait; once they are written, only the newer two.
  assertEquals(seen.slice(0, 2), [800, 200]);
  assertEquals(buffer.waitingMs(), 0);
});

Deno.test("a tick during a flush starts the next flush as soon as it ends", async () => {
  await using store = await memoryStore();
  const { links, buffer, faults } = await visitedLinks(store, 15);
  using hand = handTimers();
  buffer.start();
  const tick = hand.timers[0]!.tick;
  onFirstCommit(faults, () => {
    record(buffer, links[0]!, visit({ userAgent: MOBILE_UA })); // written already: next batch
    tick(); // the timer ticks while the flush is under way
  });
  tick();
  await buffer.flush(); // the flush the first tick started
  await buffer.idle();
  assertEquals(buffer.pending, 0, "the next flush ran at once, with no tick of its own");
  assertEquals(await tally(store, CLICK_TALLY), 16);
  await buffer.stop();
});

Deno.test("each second writes clicks only; the record and totals once the lag is up", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "lag" }, options);
  const buffer = new ClickBuffer(store, { statsLagMs: 60_000 });
  using hand = handTimers();
  buffer.start();
  const tick = hand.timers[0]!.tick;
  const stamp = async () => (await store.kv.get(linkStatsKey(link.id))).versionstamp;
  const made = await stamp();
  for (let second = 0; second < 25; second++) {
    record(buffer, link, visit({ referer: "https://news.example/" }));
    tick();
    await buffer.idle();
    store.advance(1_000);
  }
  assertEquals(await clicksOf(store, link), 25, "every click within the second");
  assertEquals(await stamp(), made, "the record is not rewritten before half the lag");
  assertEquals(await tally(store, CLICK_TALLY), 0);
  assertEquals(buffer.figuresWaiting, 1);
  assertEquals(buffer.figuresWaitingMs(), 25_000);
  store.advance(35_000); // past the lag from the first visit waiting
  tick();
  await buffer.idle();
  assertEquals(await tally(store, CLICK_TALLY), 25);
  assertEquals(await tally(store, REFERRER_TALLY, "news.example"), 25);
  assertEquals((await readCounters(store, [link.id]))[0]!.lastUsedAt, store.now() - 36_000);
  assertEquals(buffer.figuresWaiting, 0);
  const written = await stamp();
  assert(written !== made);
  record(buffer, link, visit());
  tick();
  await buffer.idle();
  assertEquals(await clicksOf(store, link), 26);
  assertEquals(await stamp(), written, "rewritten at most once a lag period");
  await buffer.stop();
  assertEquals(await tally(store, CLICK_TALLY), 26, "stop writes everything");
});

Deno.test("figures past the bound in bytes are written at once, sooner than the lag", async () => {
  await using store = await memoryStore();
  const links = await linksOf(store, 3);
  const buffer = new ClickBuffer(store, { statsLagMs: 300_000, maxFigureBytes: 1 });
  using hand = handTimers();
  buffer.start();
  for (const link of links) record(buffer, link, visit());
  hand.timers[0]!.tick();
  await buffer.idle();
  assertEquals(await tally(store, CLICK_TALLY), 3);
  assertEquals(buffer.figuresWaiting, 0);
  await buffer.stop();
});

Deno.test("a link removed while its figures wait loses them, its clicks journaled too", async () => {
  await using store = await memoryStore();
  const kept = await createLink(store, { url: "example.com/k", slug: "kept" }, options);
  const gone = await createLink(store, { url: "example.com/g", slug: "gone" }, options);
  const buffer = new ClickBuffer(store, { statsLagMs: 60_000 });
  using hand = handTimers();
  buffer.start();
  record(buffer, kept, visit());
  record(buffer, gone, visit());
  hand.timers[0]!.tick();
  await buffer.idle();
  assertEquals(await clicksOf(store, gone), 1, "journaled, not yet in its record");
  assertEquals(await clicksOf(store, kept), 1);
  await removeLink(store, "gone");
  assertEquals(await clicksOf(store, gone), 0);
  record(buffer, gone, visit()); // a visit the removal raced
  hand.timers[0]!.tick();
  await buffer.idle();
  await buffer.stop();
  assertEquals(await tally(store, CLICK_TALLY), 1);
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 1);
  assertEquals(await clicksOf(store, kept), 1);
  assertEquals((await store.kv.get(linkStatsKey(gone.id))).value, null);
  assertEquals(
    await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] })),
    [],
    "every journal part is spent",
  );
});

Deno.test("a link waiting keeps names, not visitors: distinct visitors take what one does", async () => {
  await using store = await memoryStore();
  const [link, other] = await linksOf(store, 2);
  const buffer = new ClickBuffer(store, { countryLookup: () => "GB" });
  // A thousand visitors, each with its own User-Agent and address, of the same device, referrer
  // and country, take what a thousand visits of one visitor take.
  for (let i = 0; i < 1_000; i++) {
    record(
      buffer,
      link!,
      visit({ userAgent: `${DESKTOP} v/${i}`, client: `10.0.${i >> 8}.${i & 255}` }),
    );
  }
  const distinct = buffer.pendingBytes;
  for (let i = 0; i < 1_000; i++) record(buffer, other!, visit());
  assertEquals(buffer.pending, 2_000);
  assertEquals(buffer.pendingBytes, 2 * distinct);
  await buffer.flush();
  assertEquals(await clicksOf(store, link!), 1_000);
  assertEquals(await tally(store, DEVICE_TALLY, "desktop"), 2_000);
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 2_000);
});

Deno.test("visits recorded before the country lookup is loaded find their countries at flush", async () => {
  await using store = await memoryStore();
  const [first, second] = await linksOf(store, 2);
  // The offline database loads on the first flush here (no start): until then a visit keeps
  // its address.
  const buffer = new ClickBuffer(store);
  record(buffer, first!, visit({ client: "81.2.69.160" }));
  const one = buffer.pendingBytes;
  record(buffer, first!, visit({ client: "81.2.69.161" }));
  const waiting = buffer.pendingBytes - one;
  record(buffer, first!, visit({ client: "2a00:1450:4001:81b::200e" }));
  record(buffer, first!, visit({ userAgent: BOT_UA, client: "81.2.69.162" }));
  await buffer.flush();
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 2);
  assertEquals(await tally(store, COUNTRY_TALLY, "DE"), 1);
  assertEquals(await tally(store, DEVICE_TALLY, "bot"), 1);
  assertEquals(await clicksOf(store, first!), 3);
  // Loaded now: a visit keeps its country, not its address.
  record(buffer, second!, visit({ client: "81.2.69.160" }));
  const loaded = buffer.pendingBytes;
  record(buffer, second!, visit({ client: "81.2.69.161" }));
  assert(buffer.pendingBytes - loaded < waiting, "an address is kept only while the lookup loads");
  await buffer.flush();
  assertEquals(await tally(store, COUNTRY_TALLY, "GB"), 4);
});

Deno.test("a link whose line is cut down to fit a part counts its busiest referrers by name", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "viral" }, options);
  const buffer = new ClickBuffer(store);
  // More referring hosts in one second than a journal part holds: the line keeps the busiest.
  for (let i = 0; i < 3_000; i++) {
    record(buffer, link, visit({ referer: `https://${"r".repeat(40)}${i}.example/` }));
  }
  for (let i = 0; i < 3; i++) record(buffer, link, visit({ referer: "https://often.example/" }));
  await buffer.flush();
  assertEquals(await clicksOf(store, link), 3_003);
  // The figures are the journal's, as a writer taking it over would fold them: the busiest host
  // is named though a hundred others were seen before it.
  assertEquals(await tally(store, REFERRER_TALLY, "often.example"), 3);
  const stats = (await store.kv.get<{ shares: Record<string, Record<string, number>> }>(
    linkStatsKey(link.id),
  )).value!;
  const referrers = stats.shares[REFERRER_TALLY]!;
  assertEquals(referrers["often.example"], 3);
  assertEquals(Object.values(referrers).reduce((a, b) => a + b, 0), 3_003);
});

Deno.test("figures whose commit landed unseen are written once when the next settle fails", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "x" }, options);
  const faults: Faults = { commits: 0, down: false };
  let failWriterRead = false;
  const kv = new Proxy(faultyKv(store.kv, faults), {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "get") {
        return (key: Deno.KvKey) => {
          if (failWriterRead && key[0] === "click_writers") {
            failWriterRead = false;
            return Promise.reject(new Error("the store failed to answer"));
          }
          return value.call(target, key);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const buffer = new ClickBuffer({ ...store, kv }, { statsLagMs: 60_000, log: () => {} });
  for (let i = 0; i < 5; i++) record(buffer, link, visit());
  await buffer.tick(); // clicks committed, figures wait
  faults.landing = 1; // the figures commit lands, its answer is lost
  await buffer.flush().catch(() => {});
  failWriterRead = true; // the next flush's settle fails once
  await buffer.flush().catch(() => {});
  await buffer.flush();
  assertEquals(await tally(store, CLICK_TALLY), 5);
  assertEquals((await readCounters(store, [link.id]))[0]!.clicks, 5);
});
