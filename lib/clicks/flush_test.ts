import { assert, assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { type Faults, faultyKv } from "../../tests/_helpers/faults.ts";
import { memoryStore, tally, type TestStore } from "../../tests/_helpers/store.ts";
import { linkStatsKey } from "../kv/keys.ts";
import { CLICKS, DAY_CLICKS, REFERRERS } from "../tallies/kinds.ts";
import { type LinkStats, newLinkStats } from "../tallies/shares.ts";
import {
  chunksOf,
  commitsInFlight,
  type KnownStats,
  linksPerCommit,
  type LinkVisits,
  writeVisits,
} from "./flush.ts";

function visits(count: number, referrers = 1): LinkVisits[] {
  return Array.from({ length: count }, (_, i) => ({
    slug: `s${i}`,
    id: `id${i}`,
    title: "",
    clicks: 1,
    lastUsedAt: 0,
    day: "2026-11-23",
    referrers: new Map(Array.from({ length: referrers }, (_, r) => [`site${r}.example`, 1])),
    devices: new Map([["desktop", 1]]),
    countries: new Map([["GB", 1]]),
  }));
}

Deno.test("a small flush commits few links at a time, a large one more", () => {
  assertEquals(linksPerCommit(1), 10);
  assertEquals(linksPerCommit(1_000), 10);
  assertEquals(linksPerCommit(2_001), 21);
  assertEquals(linksPerCommit(5_000), 50);
  assertEquals(linksPerCommit(20_000), 90);
});

async function storeFigures(store: TestStore, links: LinkVisits[]): Promise<void> {
  for (let i = 0; i < links.length; i += 500) {
    const atomic = store.kv.atomic();
    for (const link of links.slice(i, i + 500)) {
      atomic.set(linkStatsKey(link.id), newLinkStats(null));
    }
    await atomic.commit();
  }
}

Deno.test("a large flush keeps two commits in flight, and writes each link once", async () => {
  assertEquals([1_000, 3_000, 3_001, 20_000].map((count) => commitsInFlight(count)), [1, 1, 2, 2]);
  for (const [count, inFlight] of [[1_000, 1], [4_000, 2]] as const) {
    await using store = await memoryStore();
    const links = visits(count);
    await storeFigures(store, links);
    const faults: Faults = { commits: 0, down: false, committing: { now: 0, most: 0 } };
    let told = 0;
    const outcome = await writeVisits({ ...store, kv: faultyKv(store.kv, faults) }, links, {
      flushLinks: count,
      touched: new Map(),
      known: new Map(),
      onCommitted: (chunk) => told += chunk.length,
      onRefused: () => {},
    });
    assertEquals(faults.committing!.most, inFlight, `${count} links`);
    assertEquals(outcome, { clicks: count, bots: 0, dropped: 0 });
    assertEquals(told, count);
    assertEquals(await tally(store, CLICKS), count);
    const entries = await store.kv.getMany<LinkStats[]>(
      [links[0]!, links[count - 1]!].map((link) => linkStatsKey(link.id)),
    );
    assertEquals(entries.map((entry) => entry.value?.shares[CLICKS]?.[""]), [1, 1]);
  }
});

Deno.test("a flush behind the lag allowed keeps more commits in flight, until back on pace", () => {
  // 1,000 links of 2,000 written in 500 ms: done at 2,000 ms.
  const pace = { oldestAt: 600, startedAt: 1_000, written: 1_000 };
  const now = 1_500;
  assertEquals(commitsInFlight(2_000, pace, now), 1, "done 1,400 ms after the oldest visit");
  assertEquals(commitsInFlight(2_000, { ...pace, oldestAt: 400 }, now), 4, "done 1,600 ms after");
  // 19,000 links of 20,000 written in 500 ms: done at 1,526 ms.
  const large = { oldestAt: 600, startedAt: 1_000, written: 19_000 };
  assertEquals(commitsInFlight(20_000, { ...large, oldestAt: 0 }, now), 4);
  assertEquals(commitsInFlight(20_000, large, now), 2, "a large flush on pace keeps its two");
  assertEquals(
    commitsInFlight(2_000, { ...pace, oldestAt: 400, written: 0 }, now),
    1,
    "no pace yet",
  );
  assertEquals(
    commitsInFlight(2_000, { ...pace, oldestAt: 400, written: 2_000 }, now),
    1,
    "nothing left",
  );
});

Deno.test("a flush starts and ends lanes between chunks as the commits wanted in flight change", async () => {
  await using store = await memoryStore();
  const links = visits(1_000); // 100 chunks of 10
  await storeFigures(store, links);
  // Chunks taken and not yet committed: each lane takes its next chunk as it starts, so this
  // is how many are in flight (a chunk may take one link ahead, to know it is full).
  let taken = 0;
  let committed = 0;
  function* counted(): Generator<LinkVisits> {
    for (const link of links) {
      taken++;
      yield link;
    }
  }
  const inFlight = () => Math.floor((taken - committed) / 10);
  let most = 0;
  let mostAfter = 0; // once one is wanted again, and the lanes have had a chunk to end
  const outcome = await writeVisits(store, counted(), {
    flushLinks: links.length,
    touched: new Map(),
    known: new Map(),
    inFlight: () => {
      const chunks = committed / 10;
      if (chunks >= 50) mostAfter = Math.max(mostAfter, inFlight());
      return chunks >= 10 && chunks < 40 ? 4 : 1;
    },
    onCommitted: (chunk) => {
      most = Math.max(most, inFlight());
      committed += chunk.length;
    },
    onRefused: () => {},
  });
  assertEquals(most, 4);
  assertEquals(mostAfter, 0, "one lane left, and it asks between its own commits");
  assertEquals(committed, 1_000);
  assertEquals(outcome, { clicks: 1_000, bots: 0, dropped: 0 });
  assertEquals(await tally(store, CLICKS), 1_000, "each link written once");
});

Deno.test("a flush whose lane started midway fails throws once every lane settles", async () => {
  // Four lanes from the sixth commit on; one of commits 16-19 fails, each a different lane's.
  for (const passing of [15, 16, 17, 18]) {
    await using store = await memoryStore();
    const links = visits(1_000);
    await storeFigures(store, links);
    const faults: Faults = { commits: 1, passing, down: false, committing: { now: 0, most: 0 } };
    let told = 0;
    let chunks = 0;
    await assertRejects(
      () =>
        writeVisits({ ...store, kv: faultyKv(store.kv, faults) }, links, {
          flushLinks: links.length,
          touched: new Map(),
          known: new Map(),
          inFlight: () => chunks >= 5 ? 4 : 1,
          onCommitted: (_, outcome) => {
            chunks++;
            told += outcome.clicks;
          },
          onRefused: () => {},
        }),
      Error,
      "simulated store failure",
    );
    assertEquals(faults.committing!.now, 0, "nothing left under way");
    assert(told < links.length, "the flush stopped taking chunks");
    assertEquals(await tally(store, CLICKS), told, "what was told of is what was written");
  }
});

Deno.test("a large flush that fails throws once its commits in flight settle, each told of", async () => {
  await using store = await memoryStore();
  const links = visits(4_000);
  await storeFigures(store, links);
  const faults: Faults = {
    commits: 1,
    passing: 7,
    down: false,
    committing: { now: 0, most: 0 },
  };
  let told = 0;
  const known: KnownStats = new Map();
  await assertRejects(
    () =>
      writeVisits({ ...store, kv: faultyKv(store.kv, faults) }, links, {
        flushLinks: links.length,
        touched: new Map(),
        known,
        onCommitted: (_, outcome) => told += outcome.clicks,
        onRefused: () => {},
      }),
    Error,
    "simulated store failure",
  );
  assertEquals(faults.committing!.now, 0, "nothing left under way");
  assertEquals(faults.committing!.most, 2);
  assert(told >= 7 * linksPerCommit(links.length), `${told} clicks told of`);
  assert(told < links.length, "the flush stopped taking chunks");
  assertEquals(await tally(store, CLICKS), told, "what was told of is what was written");
  assertEquals(known.size, told, "only committed figures are remembered");
});

Deno.test("chunks keep every link once, in order, within the commit's size", () => {
  for (const count of [0, 1, 9, 10, 11, 1_000, 2_500, 20_000]) {
    const links = visits(count);
    const chunks = [...chunksOf(links, links.length)];
    assertEquals(chunks.flat(), links);
    assert(chunks.every((chunk) => chunk.length > 0 && chunk.length <= linksPerCommit(count)));
  }
  assertEquals([...chunksOf(visits(1_000), 1_000)].length, 100);
});

Deno.test("a batch of a large flush goes as many links to a commit as the whole flush", () => {
  const chunks = [...chunksOf(visits(100), 20_000)];
  assertEquals(chunks.map((chunk) => chunk.length), [90, 10]);
});

Deno.test("links with many shares go fewer to a commit, and a huge one alone", () => {
  const chunks = [...chunksOf(visits(40, 20), 40)];
  assert(chunks.every((chunk) => chunk.length <= 3), "each link costs 27 of 100 mutations");
  const huge = [...chunksOf([...visits(2), ...visits(1, 300), ...visits(2)], 5)];
  assertEquals(huge.map((chunk) => chunk.length), [2, 1, 2]);
});

Deno.test("chunks take links from their iterator only as each chunk needs them", () => {
  let taken = 0;
  function* counted(): Generator<LinkVisits> {
    for (const link of visits(1_000)) {
      taken++;
      yield link;
    }
  }
  const chunks = chunksOf(counted(), 1_000);
  const first = chunks.next();
  assertEquals(first.value?.length, 10);
  assertEquals(taken, 11, "the first chunk and the link that did not fit it");
  chunks.next();
  assertEquals(taken, 21);
});

Deno.test("links counting long names go fewer to a commit, within the store's 80 KiB of keys", () => {
  const host = (i: number) =>
    `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.site${i}.example`;
  const links = visits(9_000).map((link, i) => ({
    ...link,
    referrers: new Map(Array.from({ length: 4 }, (_, r) => [host(i * 4 + r), 1])),
  }));
  const chunks = [...chunksOf(links, links.length)];
  assertEquals(chunks.flat().length, 9_000);
  for (const chunk of chunks) {
    const nameBytes = chunk.reduce(
      (sum, link) => sum + [...link.referrers.keys()].reduce((n, name) => n + name.length, 0),
      0,
    );
    assert(nameBytes < 40 * 1024, `a chunk of ${chunk.length} links names ${nameBytes} bytes`);
  }
  assert(chunks[0]!.length < linksPerCommit(9_000));
});

Deno.test("a chunk the store refuses for its size is written in halves, each told of", async () => {
  await using store = await memoryStore();
  // Forty links whose stored figures are large (100 referring hosts of some 250 characters
  // each): together over the 800 KiB one commit may write, each well within a record's 64 KiB.
  const links = visits(40);
  for (const link of links) {
    const stats: LinkStats = newLinkStats(null);
    stats.shares[REFERRERS] = Object.fromEntries(
      Array.from({ length: 100 }, (_, r) => [`${"r".repeat(240)}${r}.example`, 1]),
    );
    await store.kv.set(linkStatsKey(link.id), stats);
  }
  const committed: number[] = [];
  const known: KnownStats = new Map();
  const outcome = await writeVisits(store, links, {
    flushLinks: 20_000, // as many links to a commit as the largest flush takes
    touched: new Map(),
    known,
    onCommitted: (chunk, part) => {
      committed.push(chunk.length);
      assertEquals(part.clicks, chunk.length);
    },
    onRefused: (link) => {
      throw new Error(`${link.slug} refused`);
    },
  });
  assertEquals(outcome, { clicks: 40, bots: 0, dropped: 0 });
  assert(committed.length > 1, `written as ${committed.length} commit(s)`);
  assertEquals(committed.reduce((a, b) => a + b, 0), 40);
  assertEquals(await tally(store, CLICKS), 40);
  const stored = await store.kv.get<LinkStats>(linkStatsKey(links[39]!.id));
  assertEquals(stored.value?.shares[CLICKS]?.[""], 1);
  assertEquals(Object.keys(stored.value?.shares[REFERRERS] ?? {}).length, 101);
  assertEquals(known.size, 40);
});

Deno.test("a link whose figures the store cannot take even alone loses its visits, not the flush", async () => {
  await using store = await memoryStore();
  const links = visits(3);
  for (const link of links) await store.kv.set(linkStatsKey(link.id), newLinkStats(null));
  // The middle link's figures: as many days as a record holds, so that one more day is too many
  // (a record can grow so only by a fault, or from an older writer).
  const days: Record<string, number> = {};
  const big: LinkStats = newLinkStats(null);
  big.shares[DAY_CLICKS] = days;
  for (let day = 0;; day++) {
    days[`2000-01-${String(day).padStart(6, "0")}`] = 1;
    try {
      await store.kv.set(linkStatsKey(links[1]!.id), big);
    } catch {
      delete days[`2000-01-${String(day).padStart(6, "0")}`];
      break;
    }
  }
  const refused: string[] = [];
  const outcome = await writeVisits(store, links, {
    flushLinks: 20_000,
    touched: new Map(),
    known: new Map(),
    onCommitted: () => {},
    onRefused: (link) => refused.push(link.slug),
  });
  assertEquals(outcome, { clicks: 2, bots: 0, dropped: 1 });
  assertEquals(refused, [links[1]!.slug]);
  assertEquals(await tally(store, CLICKS), 2);
  const stored = await store.kv.get<LinkStats>(linkStatsKey(links[1]!.id));
  assertEquals(stored.value?.shares[CLICKS], undefined, "the big link's figures are as they were");
});

Deno.test("a link's figures keep the writers of the last hour, at most 16, the latest", async () => {
  await using store = await memoryStore();
  const [link] = visits(1);
  const stats: LinkStats = newLinkStats(null);
  const now = store.now();
  stats.writers = {};
  for (let i = 0; i < 3; i++) stats.writers[`stale${i}`] = now - 3_600_001 - i;
  for (let i = 0; i < 18; i++) stats.writers[`recent${i}`] = now - 1_000 * (18 - i);
  await store.kv.set(linkStatsKey(link!.id), stats);
  await writeVisits(store, [link!], {
    flushLinks: 1,
    touched: new Map(),
    known: new Map(),
    onCommitted: () => {},
    onRefused: () => {},
  });
  const stored = await store.kv.get<LinkStats>(linkStatsKey(link!.id));
  const ids = Object.keys(stored.value?.writers ?? {});
  assertEquals(ids.length, 16);
  const own = ids.filter((id) => !id.startsWith("recent"));
  assertEquals(own.length, 1, "this process, and no stale writer");
  assert(stored.value!.writers![own[0]!]! >= now, "its latest commit");
  const recent = ids.filter((id) => id.startsWith("recent")).sort((a, b) =>
    Number(a.slice(6)) - Number(b.slice(6))
  );
  assertEquals(recent, Array.from({ length: 15 }, (_, i) => `recent${i + 3}`), "the latest kept");
  assertEquals(stored.value?.shares[CLICKS]?.[""], 1);
});
