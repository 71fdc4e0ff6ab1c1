import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { keysUnder, memoryStore, tally } from "../../tests/_helpers/store.ts";
import { BOT_UA, MOBILE_UA, record, visit } from "../../testing/visits.ts";
import { ClickBuffer } from "../clicks/buffer.ts";
import { createStore } from "../kv/store.ts";
import { InvalidInputError } from "../errors.ts";
import { linkRanksPrefix, linkStatsKey, linkVisitsKey, usedUpLinkKey } from "../kv/keys.ts";
import {
  CLICK_TALLY,
  COUNTRY_TALLY,
  DAY_CLICK_TALLY,
  DAY_LINK_TALLY,
  DEVICE_TALLY,
  LINK_TALLY,
  REFERRER_TALLY,
} from "../tallies/kinds.ts";
import { parseInput } from "../validation.ts";
import {
  bulkLinkInput,
  createLink,
  createLinkInput,
  findUsedUpLink,
  lookupLink,
  readVisitsLeft,
  removeLink,
  sweepExpiredLinks,
  takeVisit,
  withFormVisitLimit,
} from "./mod.ts";

const options = { serviceHost: "sho.rt" };
const WEEK = 7 * 86_400_000;

Deno.test("takeVisit lets exactly maxVisits visits through, the last retiring the link", async () => {
  await using store = await memoryStore();
  const link = await createLink(
    store,
    { url: "example.com/once", slug: "thrice", maxVisits: 3 },
    options,
  );
  assertEquals(link.maxVisits, 3);
  assertEquals(await readVisitsLeft(store, [link]), [3]);
  const outcomes = [];
  for (let i = 0; i < 4; i++) outcomes.push(await takeVisit(store, link));
  assertEquals(outcomes.map((o) => o.taken ? o.visitsLeft : "refused"), [2, 1, 0, "refused"]);
  assertEquals((await lookupLink(store, "thrice")).status, "missing", "the slug is free again");
  assertEquals(await findUsedUpLink(store, "thrice"), {
    slug: "thrice",
    protected: false,
    expiresAt: link.expiresAt,
  });
  assertEquals((await store.kv.get(linkVisitsKey(link.id))).value, null);
});

Deno.test("a link without a limit has no visits counter and reports none", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "open" }, options);
  assertEquals("maxVisits" in link, false, "its record is stored as before limits existed");
  assertEquals((await store.kv.get(linkVisitsKey(link.id))).value, null);
  assertEquals(await readVisitsLeft(store, [link]), [null]);
});

Deno.test("concurrent visits never let more people through than the limit", async () => {
  await using store = await memoryStore();
  // A second handle on the same store, as another instance has: its visits race this one's in
  // the store, where the checked commit alone keeps the count.
  const other = createStore(store.kv, { now: () => store.now() });
  const link = await createLink(store, { url: "example.com", slug: "busy", maxVisits: 5 }, options);
  const outcomes = await Promise.all(
    Array.from({ length: 60 }, (_, i) => takeVisit(i % 2 ? other : store, link)),
  );
  assertEquals(outcomes.filter((o) => o.taken).length, 5);
  assertEquals(
    outcomes.flatMap((o) => (o.taken ? [o.visitsLeft] : [])).sort(),
    [0, 1, 2, 3, 4],
  );
});

Deno.test("a burst of 500 visits in one instance is served in turn, none refused", async () => {
  await using store = await memoryStore();
  const link = await createLink(
    store,
    { url: "example.com", slug: "big", maxVisits: 400 },
    options,
  );
  const outcomes = await Promise.all(Array.from({ length: 500 }, () => takeVisit(store, link)));
  assertEquals(outcomes.filter((o) => o.taken).length, 400);
  assertEquals((await lookupLink(store, "big")).status, "missing");
});

Deno.test("the last visit takes the link's share out of every figure", async () => {
  await using store = await memoryStore();
  const other = await createLink(store, { url: "example.org", slug: "other" }, options);
  const link = await createLink(
    store,
    { url: "example.com", slug: "twice", maxVisits: 2 },
    options,
  );
  const buffer = new ClickBuffer(store);
  record(buffer, other, visit());
  record(buffer, link, visit({ referer: "https://news.example/a" }));
  record(buffer, link, visit({ userAgent: MOBILE_UA, client: "2a00:1450:4001:81b::200e" }));
  record(buffer, link, visit({ userAgent: BOT_UA }));
  await buffer.flush();
  assertEquals(await tally(store, LINK_TALLY), 2);
  assertEquals(await tally(store, CLICK_TALLY), 3);
  assertEquals(await tally(store, DEVICE_TALLY, "bot"), 1);
  assert((await takeVisit(store, link)).taken);
  const last = await takeVisit(store, link);
  assert(last.taken && last.visitsLeft === 0);
  // Only the other link's share is left.
  assertEquals(await tally(store, LINK_TALLY), 1);
  assertEquals(await tally(store, DAY_LINK_TALLY, "2026-11-02"), 1);
  assertEquals(await tally(store, CLICK_TALLY), 1);
  assertEquals(await tally(store, DAY_CLICK_TALLY, "2026-11-02"), 1);
  assertEquals(await tally(store, REFERRER_TALLY, "news.example"), 0);
  assertEquals(await tally(store, REFERRER_TALLY, "direct"), 1);
  assertEquals(await tally(store, DEVICE_TALLY, "mobile"), 0);
  assertEquals(await tally(store, DEVICE_TALLY, "bot"), 0);
  assertEquals(await tally(store, DEVICE_TALLY, "desktop"), 1);
  assertEquals(await tally(store, COUNTRY_TALLY, "DE"), 0);
  assertEquals((await store.kv.get(linkStatsKey(link.id))).value, null);
  assertEquals((await keysUnder(store, linkRanksPrefix())).map((key) => key[2]), [other.id]);
  // A click of it still in the buffer is dropped, not written to a link that is gone.
  record(buffer, link, visit());
  await buffer.flush();
  assertEquals(await tally(store, CLICK_TALLY), 1);
  assertEquals((await store.kv.get(linkStatsKey(link.id))).value, null);
});

Deno.test("a used-up slug can be claimed again, which ends its mark", async () => {
  await using store = await memoryStore();
  const link = await createLink(
    store,
    { url: "example.com", slug: "again", maxVisits: 1 },
    options,
  );
  assert((await takeVisit(store, link)).taken);
  assert(await findUsedUpLink(store, "again"));
  const next = await createLink(store, { url: "example.org", slug: "again" }, options);
  assertEquals(await findUsedUpLink(store, "again"), null);
  await removeLink(store, "again");
  assertEquals(await findUsedUpLink(store, "again"), null, "a removal is no use");
  assertEquals((await takeVisit(store, link)).taken, false, "the old link takes no visit");
  assert(next.id !== link.id);
});

Deno.test("a used-up mark keeps no destination and ends at the link's deadline", async () => {
  await using store = await memoryStore();
  const link = await createLink(
    store,
    { url: "example.com/secret", slug: "locked", pass: "pw", maxVisits: 1 },
    options,
  );
  assert((await takeVisit(store, link)).taken);
  assertEquals((await findUsedUpLink(store, "locked"))?.protected, true);
  const stored = JSON.stringify((await store.kv.get(usedUpLinkKey("locked"))).value);
  assert(!stored.includes("example.com"), stored);
  store.advance(WEEK);
  assertEquals(await findUsedUpLink(store, "locked"), null);
});

Deno.test("removal and the sweep retire a limited link with its visits counter", async () => {
  await using store = await memoryStore();
  const removed = await createLink(
    store,
    { url: "example.com", slug: "gone", maxVisits: 4 },
    options,
  );
  const expired = await createLink(
    store,
    { url: "example.com", slug: "old", maxVisits: 4 },
    options,
  );
  assert((await takeVisit(store, removed)).taken);
  await removeLink(store, "gone");
  assertEquals((await store.kv.get(linkVisitsKey(removed.id))).value, null);
  assertEquals(await findUsedUpLink(store, "gone"), null);
  store.advance(WEEK);
  assertEquals((await takeVisit(store, expired)).taken, false, "an expired link takes none");
  assertEquals((await sweepExpiredLinks(store)).swept, 1);
  assertEquals((await store.kv.get(linkVisitsKey(expired.id))).value, null);
  assertEquals(await tally(store, LINK_TALLY), 0);
});

Deno.test("maxVisits must be a whole number from 1 to 10,000", () => {
  for (const bad of [0, -1, 1.5, "3", 10_001, true, [], {}, NaN, Infinity]) {
    const error = (() => {
      try {
        parseInput(createLinkInput, { url: "example.com", maxVisits: bad });
      } catch (error) {
        return error;
      }
    })();
    assert(error instanceof InvalidInputError, String(bad));
    assertEquals(error.message, "maxVisits must be a whole number from 1 to 10,000");
    assertEquals(error.field, "maxVisits");
  }
  assertEquals(parseInput(createLinkInput, { url: "x.com", maxVisits: 10_000 }).maxVisits, 10_000);
  assertEquals(parseInput(createLinkInput, { url: "x.com", maxVisits: null }).maxVisits, undefined);
  assertRejectsSync(() => parseInput(bulkLinkInput, { url: "x.com", maxVisits: null }));
});

Deno.test("a form's visit limit is read as the number its digits spell", () => {
  assertEquals(withFormVisitLimit({ maxVisits: " 12 " }).maxVisits, 12);
  assertEquals(withFormVisitLimit({ maxVisits: "" }).maxVisits, undefined);
  assertEquals(withFormVisitLimit({ maxVisits: "1.5" }).maxVisits, "1.5");
  assertEquals(withFormVisitLimit({ maxVisits: "-1" }).maxVisits, "-1");
  assertEquals(withFormVisitLimit({ url: "x" }), { url: "x" });
});

function assertRejectsSync(fn: () => unknown): void {
  let threw = false;
  try {
    fn();
  } catch (error) {
    threw = error instanceof InvalidInputError;
  }
  assert(threw, "refused");
}

Deno.test("a used-up mark written with a destination is read without it", async () => {
  await using store = await memoryStore();
  const expiresAt = store.now() + WEEK;
  await store.kv.set(usedUpLinkKey("older"), {
    slug: "older",
    url: "https://example.com/x",
    expiresAt,
  });
  await store.kv.set(usedUpLinkKey("locked"), { slug: "locked", url: null, expiresAt });
  assertEquals(await findUsedUpLink(store, "older"), {
    slug: "older",
    protected: false,
    expiresAt,
  });
  assertEquals((await findUsedUpLink(store, "locked"))?.protected, true);
});
