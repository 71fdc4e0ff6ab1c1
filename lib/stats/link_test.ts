import { assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore, TEST_START, type TestStore } from "../../tests/_helpers/store.ts";
import { BOT_UA, MOBILE_UA, record, visit } from "../../testing/visits.ts";
import { ClickBuffer } from "../clicks/buffer.ts";
import type { VisitFacts } from "../clicks/classify.ts";
import { createLink } from "../links/create.ts";
import { removeLink } from "../links/remove.ts";
import { sweepExpiredLinks } from "../links/sweep.ts";
import { readLinkFigures, toLinkStatsView } from "./link.ts";

const DAY = 86_400_000;
const options = { serviceHost: "sho.rt" };

async function clicked(
  store: TestStore,
  slug: string,
  visits: VisitFacts[],
  pass?: string,
) {
  const link = await createLink(store, { url: `example.com/${slug}`, slug, pass }, options);
  const buffer = new ClickBuffer(store);
  for (const facts of visits) record(buffer, link, facts);
  await buffer.flush();
  return link;
}

/** The store with its reads counted, by method. */
function countingReads(store: TestStore) {
  const reads = { get: 0, getMany: 0, list: 0 };
  const kv = new Proxy(store.kv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof property === "string" && property in reads) {
        reads[property as keyof typeof reads]++;
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store: { ...store, kv }, reads };
}

Deno.test("readLinkFigures gives a link's clicks, days and breakdowns after a flush", async () => {
  await using store = await memoryStore();
  await clicked(store, "alpha", [visit({ referer: "https://news.example/" })]);
  store.advance(DAY);
  const buffer = new ClickBuffer(store);
  const link = await createLink(store, { url: "example.com/beta", slug: "beta" }, options);
  for (
    const facts of [
      visit(),
      visit({ referer: "https://news.example/a" }),
      visit({ userAgent: MOBILE_UA, client: "2a00:1450:4001:81b::1" }),
      visit({ userAgent: BOT_UA }),
    ]
  ) record(buffer, link, facts);
  await buffer.flush();
  store.advance(DAY);
  record(buffer, link, visit());
  await buffer.flush();
  const found = await readLinkFigures(store, "beta");
  assertEquals(found.status, "live");
  if (found.status !== "live") return;
  const days = Array.from({ length: 7 }, (_, i) => ({
    date: new Date(TEST_START + (i - 4) * DAY).toISOString().slice(0, 10),
    clicks: 0,
  }));
  days[5]!.clicks = 3;
  days[6]!.clicks = 1;
  assertEquals(found.figures, {
    slug: "beta",
    title: "",
    protected: false,
    createdAt: TEST_START + DAY,
    expiresAt: TEST_START + 8 * DAY,
    clicks: 4,
    lastUsedAt: TEST_START + 2 * DAY,
    days,
    referrers: [{ name: "direct", clicks: 3 }, { name: "news.example", clicks: 1 }],
    devices: [{ name: "desktop", clicks: 3 }, { name: "bot", clicks: 1 }, {
      name: "mobile",
      clicks: 1,
    }],
    countries: [{ name: "GB", clicks: 3 }, { name: "DE", clicks: 1 }],
  });
  assertEquals(toLinkStatsView(found.figures, { baseUrl: "http://sho.rt", now: store.now() }), {
    slug: "beta",
    shortUrl: "http://sho.rt/beta",
    clicks: 4,
    lastUsedAt: new Date(TEST_START + 2 * DAY).toISOString(),
    createdAt: new Date(TEST_START + DAY).toISOString(),
    expiresAt: new Date(TEST_START + 8 * DAY).toISOString(),
    expiresInDays: 6,
    days,
    referrers: found.figures.referrers,
    devices: found.figures.devices,
    countries: found.figures.countries,
  });
});

Deno.test("readLinkFigures of a new link is zeros with seven days and no last use", async () => {
  await using store = await memoryStore();
  await createLink(store, { url: "example.com", slug: "quiet", pass: "secret" }, options);
  const found = await readLinkFigures(store, "quiet");
  if (found.status !== "live") throw new Error(`expected live, got ${found.status}`);
  assertEquals(found.figures.protected, true);
  assertEquals(found.figures.clicks, 0);
  assertEquals(found.figures.lastUsedAt, null);
  assertEquals(found.figures.days.length, 7);
  assertEquals(found.figures.days.every((day) => day.clicks === 0), true);
  assertEquals([found.figures.referrers, found.figures.devices, found.figures.countries], [
    [],
    [],
    [],
  ]);
  assertEquals("url" in found.figures, false);
});

Deno.test("readLinkFigures tells an expired link from a missing one, before and after the sweep", async () => {
  await using store = await memoryStore();
  const link = await clicked(store, "old", [visit()]);
  assertEquals(await readLinkFigures(store, "never"), { status: "missing" });
  assertEquals(await readLinkFigures(store, "old", link.expiresAt), {
    status: "expired",
    slug: "old",
    expiresAt: link.expiresAt,
  });
  assertEquals((await readLinkFigures(store, "old", link.expiresAt - 1)).status, "live");
  store.advance(7 * DAY);
  assertEquals((await readLinkFigures(store, "old")).status, "expired");
  await sweepExpiredLinks(store);
  assertEquals(await readLinkFigures(store, "old"), { status: "missing" });
});

Deno.test("readLinkFigures of a removed link is missing, and a name claimed again starts at zero", async () => {
  await using store = await memoryStore();
  await clicked(store, "again", [visit(), visit()]);
  await removeLink(store, "again");
  assertEquals(await readLinkFigures(store, "again"), { status: "missing" });
  await createLink(store, { url: "example.com/new", slug: "again" }, options);
  const found = await readLinkFigures(store, "again");
  if (found.status !== "live") throw new Error(`expected live, got ${found.status}`);
  assertEquals(found.figures.clicks, 0);
});

Deno.test("readLinkFigures makes two store calls whatever the store holds, and lists nothing", async () => {
  await using base = await memoryStore();
  for (let i = 0; i < 50; i++) {
    await clicked(base, `link-${i}`, [visit({ referer: `https://r${i}.example/` })]);
  }
  const { store, reads } = countingReads(base);
  const found = await readLinkFigures(store, "link-7");
  assertEquals(found.status, "live");
  // The link under its slug, then its figures record and clicks' counter together.
  assertEquals(reads, { get: 1, getMany: 1, list: 0 });
});

Deno.test("readLinkFigures keeps the most-clicked names of a breakdown, as the service-wide stats do", async () => {
  await using store = await memoryStore();
  const visits = Array.from({ length: 30 }, (_, i) => visit({ referer: `https://r${i}.example/` }));
  await clicked(store, "wide", [...visits, visit({ referer: "https://r29.example/" })]);
  const found = await readLinkFigures(store, "wide");
  if (found.status !== "live") throw new Error(`expected live, got ${found.status}`);
  assertEquals(found.figures.referrers.length, 20);
  assertEquals(found.figures.referrers[0], { name: "r29.example", clicks: 2 });
  assertEquals(found.figures.referrers[1], { name: "r0.example", clicks: 1 });
});
