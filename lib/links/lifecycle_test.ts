import {
  assert,
  assertEquals,
  assertNotEquals,
  assertRejects,
} from "../../tests/_helpers/assert.ts";
import { keysUnder, memoryStore, tally, TEST_START } from "../../tests/_helpers/store.ts";
import { LinkNotFoundError, ReservedSlugError, SlugTakenError } from "../errors.ts";
import {
  linkKey,
  linksByCreatedPrefix,
  linksByExpiryPrefix,
  linkStatsKey,
  undatedLinksPrefix,
} from "../kv/keys.ts";
import { DAY_LINK_TALLY, LINK_TALLY } from "../tallies/kinds.ts";
import {
  createLink,
  findLinkPage,
  getLiveLink,
  importLegacyLinks,
  isLinkCursor,
  listExpiredLinks,
  listLinks,
  lookupLink,
  removeLink,
  stampUndatedLinks,
  sweepExpiredLinks,
} from "./mod.ts";
import type { LinkRecord } from "./record.ts";

const DAY = 24 * 3600 * 1000;
const WEEK = 7 * DAY;
const options = { serviceHost: "sho.rt" };

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

Deno.test("createLink stores a link with a seven-day deadline", async () => {
  await using store = await memoryStore();
  const record = await createLink(store, { url: "example.com", title: "T" }, options);
  assertEquals(record.url, "https://example.com");
  assertEquals(record.createdAt, TEST_START);
  assertEquals(record.expiresAt, TEST_START + WEEK);
  assertEquals(record.passHash, null);
  const found = await lookupLink(store, record.slug);
  assertEquals(found.status, "live");
  assertEquals(await tally(store, LINK_TALLY), 1);
  assertEquals(await tally(store, DAY_LINK_TALLY, "2026-11-02"), 1);
});

Deno.test("createLink refuses a reserved slug in any case", async () => {
  await using store = await memoryStore();
  await assertRejects(
    () => createLink(store, { url: "example.com", slug: "Docs" }, options),
    ReservedSlugError,
  );
});

Deno.test("createLink refuses a slug held by a live link", async () => {
  await using store = await memoryStore();
  await createLink(store, { url: "example.com", slug: "mine" }, options);
  await assertRejects(
    () => createLink(store, { url: "example.org", slug: "mine" }, options),
    SlugTakenError,
  );
  assertEquals((await getLiveLink(store, "mine"))?.url, "https://example.com");
});

Deno.test("slugs are case-sensitive", async () => {
  await using store = await memoryStore();
  await createLink(store, { url: "example.com", slug: "Case" }, options);
  const other = await createLink(store, { url: "example.org", slug: "case" }, options);
  assertEquals(other.slug, "case");
});

Deno.test("racing creates of one slug have exactly one winner", async () => {
  await using store = await memoryStore();
  const results = await Promise.allSettled(
    Array.from(
      { length: 50 },
      (_, i) => createLink(store, { url: `example.com/${i}`, slug: "race" }, options),
    ),
  );
  const won = results.filter((result) => result.status === "fulfilled");
  assertEquals(won.length, 1);
  for (const result of results) {
    if (result.status === "rejected") assert(result.reason instanceof SlugTakenError);
  }
  assertEquals(await tally(store, LINK_TALLY), 1);
});

Deno.test("an expired link reads as expired, and its slug can be claimed again", async () => {
  await using store = await memoryStore();
  const old = await createLink(store, { url: "example.com/old", slug: "again" }, options);
  store.advance(WEEK);
  assertEquals((await lookupLink(store, "again")).status, "expired");
  assertEquals(await getLiveLink(store, "again"), null);
  const fresh = await createLink(store, { url: "example.com/new", slug: "again" }, options);
  assertNotEquals(fresh.id, old.id);
  assertEquals((await getLiveLink(store, "again"))?.url, "https://example.com/new");
  // The old link's share left the totals; the new one's is there.
  assertEquals(await tally(store, LINK_TALLY), 1);
  assertEquals((await store.kv.get(linkStatsKey(old.id))).value, null);
  assertEquals((await keysUnder(store, linksByExpiryPrefix())).length, 1);
});

Deno.test("removeLink removes the link and every key and figure it had", async () => {
  await using store = await memoryStore();
  const record = await createLink(store, { url: "example.com", slug: "gone" }, options);
  await removeLink(store, "gone");
  assertEquals((await lookupLink(store, "gone")).status, "missing");
  assertEquals((await store.kv.get(linkStatsKey(record.id))).value, null);
  assertEquals(await keysUnder(store, linksByCreatedPrefix()), []);
  assertEquals(await keysUnder(store, linksByExpiryPrefix()), []);
  assertEquals(await tally(store, LINK_TALLY), 0);
  assertEquals(await tally(store, DAY_LINK_TALLY, "2026-11-02"), 0);
  await assertRejects(() => removeLink(store, "gone"), LinkNotFoundError);
});

Deno.test("removeLink refuses an expired link as not found", async () => {
  await using store = await memoryStore();
  await createLink(store, { url: "example.com", slug: "old" }, options);
  store.advance(WEEK + 1);
  await assertRejects(() => removeLink(store, "old"), LinkNotFoundError);
});

Deno.test("listLinks yields live links newest first with their counters", async () => {
  await using store = await memoryStore();
  for (let i = 0; i < 5; i++) {
    await createLink(store, { url: `example.com/${i}`, slug: `link-${i}` }, options);
    store.advance(1000);
  }
  store.advance(WEEK - 5000 + 500); // the first link is now past its deadline
  const slugs = (await collect(listLinks(store))).map(({ record }) => record.slug);
  assertEquals(slugs, ["link-4", "link-3", "link-2", "link-1"]);
  const [first] = await collect(listLinks(store));
  assertEquals(first?.counters, { clicks: 0, lastUsedAt: null, visitsLeft: null });
});

Deno.test("listLinks streams more links than a page", async () => {
  await using store = await memoryStore();
  await Promise.all(
    Array.from({ length: 250 }, (_, i) => createLink(store, { url: `example.com/${i}` }, options)),
  );
  assertEquals((await collect(listLinks(store))).length, 250);
});

Deno.test("findLinkPage pages through every matching link newest first by cursor", async () => {
  await using store = await memoryStore();
  for (let i = 0; i < 12; i++) {
    const note = i % 2 === 0 ? "even" : "odd";
    await createLink(store, { url: `example.com/${i}`, slug: `page-${i}`, note }, options);
    store.advance(1000);
  }
  const base = { baseUrl: "http://127.0.0.1", query: "", limit: 5 };
  const seen: string[] = [];
  let cursor: string | undefined;
  const nexts: (string | null)[] = [];
  do {
    const page = await findLinkPage(store, { ...base, cursor });
    seen.push(...page.entries.map((entry) => entry.slug));
    nexts.push(page.next);
    cursor = page.next ?? undefined;
  } while (cursor !== undefined);
  assertEquals(seen, Array.from({ length: 12 }, (_, i) => `page-${11 - i}`));
  assertEquals(nexts.length, 3);
  assert(nexts.slice(0, 2).every((next) => next !== null && isLinkCursor(next)));
  // A page that ends exactly at the last match says there is no next one.
  const even = await findLinkPage(store, { ...base, query: "EVEN", limit: 6 });
  assertEquals(
    even.entries.map((entry) => entry.slug),
    [10, 8, 6, 4, 2, 0].map((i) => `page-${i}`),
  );
  assertEquals(even.next, null);
  // A link made meanwhile does not move a page already started.
  const first = await findLinkPage(store, base);
  await createLink(store, { url: "example.com/new", slug: "page-new" }, options);
  const second = await findLinkPage(store, { ...base, cursor: first.next! });
  assertEquals(second.entries[0]?.slug, "page-6");
  assertEquals(isLinkCursor("not-a-cursor"), false);
});

Deno.test("the sweep removes expired links with their figures, in batches", async () => {
  await using store = await memoryStore();
  for (let i = 0; i < 25; i++) {
    await createLink(store, { url: `example.com/${i}`, slug: `old-${i}` }, options);
  }
  store.advance(DAY);
  await createLink(store, { url: "example.com/keep", slug: "keep" }, options);
  store.advance(WEEK - DAY);
  const listing = await listExpiredLinks(store, { limit: 10 });
  assertEquals(listing.count, 25);
  assertEquals(listing.expired.length, 10);
  const report = await sweepExpiredLinks(store, { batchSize: 7, limit: 20 });
  assertEquals(report.swept, 25);
  assertEquals(report.slugs.length, 20);
  assertEquals((await listExpiredLinks(store)).count, 0);
  assertEquals((await lookupLink(store, "old-0")).status, "missing");
  assertEquals((await lookupLink(store, "keep")).status, "live");
  assertEquals(await tally(store, LINK_TALLY), 1);
  assertEquals((await keysUnder(store, linksByCreatedPrefix())).length, 1);
});

Deno.test("the sweep retires a link whose record the store already dropped", async () => {
  await using store = await memoryStore();
  const record = await createLink(store, { url: "example.com", slug: "dropped" }, options);
  await store.kv.delete(linkKey("dropped")); // as the store's own expireIn would, a day late
  store.advance(WEEK + 2 * DAY);
  assertEquals((await sweepExpiredLinks(store)).swept, 1);
  assertEquals((await store.kv.get(linkStatsKey(record.id))).value, null);
  assertEquals(await tally(store, LINK_TALLY), 0);
});

Deno.test("the sweep retires an old link without touching a newer one of the same slug", async () => {
  await using store = await memoryStore();
  const old = await createLink(store, { url: "example.com/old", slug: "shared" }, options);
  await store.kv.delete(linkKey("shared")); // dropped by the store before any sweep
  store.advance(WEEK + DAY);
  const fresh = await createLink(store, { url: "example.com/new", slug: "shared" }, options);
  assertEquals((await sweepExpiredLinks(store)).swept, 1);
  assertEquals((await getLiveLink(store, "shared"))?.id, fresh.id);
  assertEquals((await store.kv.get(linkStatsKey(old.id))).value, null);
  assertEquals(await tally(store, LINK_TALLY), 1);
});

Deno.test("imported legacy links get their deadline on first read", async () => {
  await using store = await memoryStore();
  const report = await importLegacyLinks(store, {
    old1: "example.com/one",
    old2: { url: "https://example.com/two", title: "Two", clicks: 12 },
    old3: { url: "example.com/three", clicks: "many" },
    old6: { url: "example.com/six", clicks: " 7 " },
    old7: { url: "example.com/seven", clicks: 3.7 },
    old8: { url: "example.com/eight", clicks: -2 },
    old9: { url: "example.com/nine", clicks: "1000000000000.5" },
    old10: { url: "example.com/ten", clicks: 2 ** 53 - 1 },
    "bad slug": "example.com",
    docs: "example.com",
    old4: { nope: 1 },
    old5: "javascript:alert(1)",
  }, options);
  assertEquals(report.imported, 8);
  assertEquals(report.skipped.map((s) => s.slug).sort(), ["bad slug", "docs", "old4", "old5"]);
  assertEquals((await store.kv.get<LinkRecord>(linkKey("old1"))).value?.expiresAt, null);
  store.advance(3 * DAY);
  const found = await lookupLink(store, "old1");
  assertEquals(found.status, "live");
  if (found.status === "live") assertEquals(found.record.expiresAt, TEST_START + 3 * DAY + WEEK);
  assertEquals(
    (await store.kv.get<LinkRecord>(linkKey("old1"))).value?.expiresAt,
    TEST_START + 3 * DAY + WEEK,
  );
  assertEquals(await tally(store, LINK_TALLY), 8);
  // The sweep's listing dates the rest.
  assertEquals(await stampUndatedLinks(store), 7);
  assertEquals(await keysUnder(store, undatedLinksPrefix()), []);
  const listed = await collect(listLinks(store));
  const clicks = Object.fromEntries(
    listed.map(({ record, counters }) => [record.slug, counters.clicks]),
  );
  // A trillion at most, so that the clicks after the import stay exact.
  assertEquals(clicks, {
    old1: 0,
    old2: 12,
    old3: 0,
    old6: 7,
    old7: 3,
    old8: 0,
    old9: 1e12,
    old10: 0,
  });
});

Deno.test("an import never replaces a live link", async () => {
  await using store = await memoryStore();
  await createLink(store, { url: "example.com/live", slug: "taken" }, options);
  const report = await importLegacyLinks(store, { taken: "example.com/legacy" }, options);
  assertEquals(report.skipped, [{ slug: "taken", reason: "slug already taken" }]);
  assertEquals((await getLiveLink(store, "taken"))?.url, "https://example.com/live");
});
