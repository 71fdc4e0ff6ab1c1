import { assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore, type TestStore } from "../../tests/_helpers/store.ts";
import { BOT_UA, MOBILE_UA, record, visit } from "../../testing/visits.ts";
import { ClickBuffer } from "../clicks/buffer.ts";
import { countryCode, type VisitFacts } from "../clicks/classify.ts";
import { createLink } from "../links/create.ts";
import { importLegacyLinks } from "../links/legacy.ts";
import { getLiveLink } from "../links/read.ts";
import { removeLink } from "../links/remove.ts";
import { sweepExpiredLinks } from "../links/sweep.ts";
import { tallyKey, tallyRankKey } from "../kv/keys.ts";
import { LINK_TALLY, REFERRER_TALLY } from "../tallies/kinds.ts";
import { readStats } from "./read.ts";
import type { Stats } from "./types.ts";

const DAY = 86_400_000;
const options = { serviceHost: "sho.rt" };
const baseUrl = "http://sho.rt";

function emptyDays(today: string) {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: 7 }, (_, i) => ({
    date: new Date(end - (6 - i) * DAY).toISOString().slice(0, 10),
    links: 0,
    clicks: 0,
  }));
}

async function clicked(
  store: TestStore,
  slug: string,
  visits: VisitFacts[],
) {
  const link = await createLink(store, {
    url: `example.com/${slug}`,
    slug,
    title: slug.toUpperCase(),
  }, options);
  const buffer = new ClickBuffer(store);
  for (const facts of visits) record(buffer, link, facts);
  await buffer.flush();
  return link;
}

Deno.test("readStats of an empty store is all zeros with seven days", async () => {
  await using store = await memoryStore();
  const stats = await readStats(store, { baseUrl });
  assertEquals(stats, {
    links: 0,
    clicks: 0,
    days: emptyDays("2026-11-02"),
    top: [],
    referrers: [],
    devices: [],
    countries: [],
  });
});

Deno.test("readStats counts links, clicks, days, top links and breakdowns", async () => {
  await using store = await memoryStore();
  await clicked(store, "alpha", [
    visit(),
    visit({ referer: "https://news.example/" }),
    visit({ userAgent: MOBILE_UA }),
  ]);
  store.advance(DAY);
  await clicked(store, "beta", [
    visit({ client: "2a00:1450:4001:81b::1" }),
    visit({ userAgent: BOT_UA }),
  ]);
  await createLink(store, { url: "example.com/quiet", slug: "quiet" }, options);
  const stats = await readStats(store, { baseUrl });
  const days = emptyDays("2026-11-03");
  days[5] = { date: "2026-11-02", links: 1, clicks: 3 };
  days[6] = { date: "2026-11-03", links: 2, clicks: 1 };
  const expected: Stats = {
    links: 3,
    clicks: 4,
    days,
    top: [
      { slug: "alpha", shortUrl: "http://sho.rt/alpha", title: "ALPHA", clicks: 3 },
      { slug: "beta", shortUrl: "http://sho.rt/beta", title: "BETA", clicks: 1 },
    ],
    referrers: [{ name: "direct", clicks: 3 }, { name: "news.example", clicks: 1 }],
    devices: [{ name: "desktop", clicks: 3 }, { name: "bot", clicks: 1 }, {
      name: "mobile",
      clicks: 1,
    }],
    countries: [{ name: "GB", clicks: 3 }, { name: "DE", clicks: 1 }],
  };
  assertEquals(stats, expected);
});

Deno.test("a removed link's share leaves every figure", async () => {
  await using store = await memoryStore();
  await clicked(store, "stay", [visit()]);
  const before = await readStats(store, { baseUrl });
  await clicked(store, "leave", [
    visit({ referer: "https://only-here.example/" }),
    visit({ userAgent: MOBILE_UA, client: "2a00:1450:4001:81b::1" }),
    visit({ userAgent: BOT_UA }),
  ]);
  await removeLink(store, "leave");
  assertEquals(await readStats(store, { baseUrl }), before);
});

Deno.test("a referring host named like an object's property counts, and leaves with its link", async () => {
  await using store = await memoryStore();
  await clicked(store, "stay", [visit()]);
  const before = await readStats(store, { baseUrl });
  const names = ["constructor", "__proto__"]; // host names are lower case
  await clicked(store, "leave", names.map((name) => visit({ referer: `http://${name}/` })));
  const { referrers } = await readStats(store, { baseUrl });
  assertEquals(referrers.filter((r) => names.includes(r.name)).length, names.length);
  assertEquals(referrers.every((r) => r.clicks === 1 || r.name === "direct"), true);
  await removeLink(store, "leave");
  assertEquals(await readStats(store, { baseUrl }), before);
});

Deno.test("an expired link's share leaves every figure, before and after the sweep", async () => {
  await using store = await memoryStore();
  await clicked(store, "old", [
    visit({ referer: "https://old.example/" }),
    visit({ userAgent: BOT_UA }),
  ]);
  store.advance(2 * DAY);
  await clicked(store, "fresh", [visit(), visit()]);
  store.advance(5 * DAY); // "old" is now past its deadline, "fresh" is not
  const unswept = await readStats(store, { baseUrl });
  assertEquals(unswept.links, 1);
  assertEquals(unswept.clicks, 2);
  assertEquals(unswept.top.map((t) => t.slug), ["fresh"]);
  assertEquals(unswept.referrers, [{ name: "direct", clicks: 2 }]);
  assertEquals(unswept.devices, [{ name: "desktop", clicks: 2 }]);
  assertEquals(unswept.countries, [{ name: "GB", clicks: 2 }]);
  assertEquals(unswept.days.reduce((sum, day) => sum + day.links, 0), 1);
  assertEquals(unswept.days.reduce((sum, day) => sum + day.clicks, 0), 2);
  await sweepExpiredLinks(store);
  assertEquals(await readStats(store, { baseUrl }), unswept);
});

Deno.test("a sweep that retires an expired link while the stats are read takes its share out once", async () => {
  await using store = await memoryStore();
  await clicked(store, "old", [visit(), visit()]);
  store.advance(2 * DAY);
  await clicked(store, "fresh", [visit()]);
  store.advance(5 * DAY + 1); // "old" has expired, not yet swept
  const expected = await readStats(store, { baseUrl });
  assertEquals([expected.links, expected.clicks], [1, 1]);
  // The sweep runs between the reading of the expired links and that of the totals.
  let swept = false;
  const kv = new Proxy(store.kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== "getMany") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: Parameters<Deno.Kv["getMany"]>) => {
        // The totals' read: the expired links' shares have been read by now.
        if (!swept && JSON.stringify(args[0][0]) === JSON.stringify(tallyKey(LINK_TALLY, ""))) {
          swept = true;
          await sweepExpiredLinks(store);
        }
        return await target.getMany(...args);
      };
    },
  });
  assertEquals(await readStats({ ...store, kv }, { baseUrl }), expected);
  assertEquals(swept, true);
});

Deno.test("top holds at most ten links, most clicked first", async () => {
  await using store = await memoryStore();
  for (let i = 1; i <= 12; i++) {
    await clicked(
      store,
      `link-${i}`,
      Array.from({ length: i }, (_, j) => visit({ client: `81.2.69.${j}` })),
    );
  }
  const { top } = await readStats(store, { baseUrl });
  assertEquals(top.map((t) => t.clicks), [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
});

Deno.test("a breakdown stays exact when an expired link held its leading names", async () => {
  await using store = await memoryStore();
  const many = Array.from({ length: 30 }, (_, i) => visit({ referer: `https://r${i}.example/` }));
  await clicked(store, "loud", [...many, ...many]); // 30 referrers with 2 clicks each
  store.advance(DAY);
  await clicked(store, "kept", [visit({ referer: "https://kept.example/" })]);
  store.advance(6 * DAY); // "loud" has expired, not yet swept
  const { referrers } = await readStats(store, { baseUrl });
  assertEquals(referrers, [{ name: "kept.example", clicks: 1 }]);
});

Deno.test("a legacy link counts in the totals, its imported clicks on no day, its later ones on theirs", async () => {
  await using store = await memoryStore();
  await importLegacyLinks(store, { old: { url: "example.com/old", clicks: 5 } }, options);
  const link = (await getLiveLink(store, "old"))!;
  const buffer = new ClickBuffer(store);
  record(buffer, link, visit());
  await buffer.flush();
  const stats = await readStats(store, { baseUrl });
  assertEquals([stats.links, stats.clicks], [1, 6]);
  const today = stats.days.at(-1)!;
  assertEquals(stats.days.reduce((sum, day) => sum + day.links, 0), 0, "made on no known day");
  assertEquals(stats.days.reduce((sum, day) => sum + day.clicks, 0), 1);
  assertEquals(today.clicks, 1, "the click after the import, on its day");
});

Deno.test("a name found at two places, as when it moves while they are read, is listed once", async () => {
  await using store = await memoryStore();
  await clicked(store, "one", [visit({ referer: "https://twice.example/" })]);
  // A second, stale place of the same name, above its real one.
  await store.kv.set(tallyRankKey(REFERRER_TALLY, 5n, "twice.example"), null);
  const { referrers } = await readStats(store, { baseUrl });
  assertEquals(referrers, [{ name: "twice.example", clicks: 5 }]);
});

Deno.test("of many names tied at the twentieth place, the first by name are listed", async () => {
  await using store = await memoryStore();
  const names = [
    ...["top-a", "top-b"].map((name) => [name, 3n] as const),
    // Tied, and stored in an order their names do not follow.
    ...Array.from({ length: 60 }, (_, i) => [`t${(i * 37) % 60 + 100}.example`, 1n] as const),
  ];
  for (const [name, count] of names) {
    await store.kv.atomic()
      .sum(tallyKey(REFERRER_TALLY, name), count)
      .set(tallyRankKey(REFERRER_TALLY, count, name), null)
      .commit();
  }
  const { referrers } = await readStats(store, { baseUrl });
  const tied = Array.from({ length: 18 }, (_, i) => ({ name: `t${100 + i}.example`, clicks: 1 }));
  assertEquals(referrers, [{ name: "top-a", clicks: 3 }, { name: "top-b", clicks: 3 }, ...tied]);
});

Deno.test("sweeping every link leaves no figure, no rank and no link figures behind", async () => {
  await using store = await memoryStore();
  for (let i = 0; i < 60; i++) {
    await clicked(store, `swept-${i}`, [
      visit({ referer: `https://r${i % 7}.example/` }),
      visit({ userAgent: MOBILE_UA, client: "2a00:1450:4001:81b::1" }),
    ]);
  }
  store.advance(8 * DAY);
  assertEquals((await sweepExpiredLinks(store, { batchSize: 25 })).swept, 60);
  assertEquals(await figuresLeft(store), []);
});

Deno.test("a sweep of links with many shares each takes them out over as many commits as needed", async () => {
  await using store = await memoryStore();
  // 30 referrers each: more shares in all than one commit may take back out.
  const visits = Array.from({ length: 30 }, (_, i) => visit({ referer: `https://r${i}.example/` }));
  for (let i = 0; i < 45; i++) await clicked(store, `busy-${i}`, visits);
  store.advance(8 * DAY);
  assertEquals((await sweepExpiredLinks(store)).swept, 45);
  assertEquals(await figuresLeft(store), []);
});

Deno.test("a link of a year's lifetime holding every share it can is retired in one sweep", async () => {
  await using store = await memoryStore({ ttlMs: 365 * DAY });
  await clicked(store, "beside", [visit()]);
  const link = await createLink(store, { url: "example.com/year", slug: "year" }, options);
  const buffer = new ClickBuffer(store);
  const letters = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
  const countries = letters.flatMap((a) => letters.map((b) => a + b)).filter(countryCode);
  for (let day = 0; day < 365; day++) {
    // A new referrer and country each day, up to the most a link keeps: every country there is.
    const country = countries[day % countries.length]!;
    record(buffer, link, visit({ referer: `https://r${day}.example/`, country }));
    await buffer.flush();
    store.advance(DAY);
  }
  store.advance(DAY);
  assertEquals((await sweepExpiredLinks(store)).swept, 2);
  assertEquals(await figuresLeft(store), []);
});

Deno.test("the stats read past more expired, unswept links than a list batch holds", async () => {
  await using store = await memoryStore();
  await clicked(store, "gone-first", [visit()]);
  for (let i = 0; i < 1_000; i++) {
    await createLink(store, { url: `example.com/${i}`, slug: `gone-${i}` }, options);
  }
  store.advance(8 * DAY);
  const stats = await readStats(store, { baseUrl });
  assertEquals([stats.links, stats.clicks, stats.top], [0, 0, []]);
});

/**
 * Every key left with a value other than 0, but settings, the cache epoch and removal log, and
 * the click writers' sequence keys (one a process, not a link's: they expire a day after their
 * last commit).
 */
async function figuresLeft(store: TestStore): Promise<string[]> {
  const left: string[] = [];
  for await (const entry of store.kv.list({ prefix: [] })) {
    const value = entry.value instanceof Deno.KvU64 ? entry.value.value : entry.value;
    if (value !== 0n) {
      left.push(JSON.stringify(entry.key, (_, v) => typeof v === "bigint" ? `${v}n` : v));
    }
  }
  const kept = ['["cache_epoch"', '["cache_removals"', '["settings"', '["click_writers"'];
  return left.filter((key) => !kept.some((prefix) => key.startsWith(prefix)));
}
