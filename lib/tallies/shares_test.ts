import { assertEquals } from "../../tests/_helpers/assert.ts";
import { REFERRER_TALLY } from "./kinds.ts";
import { addShare, MAX_REFERRERS_PER_LINK, newLinkStats, OTHER_REFERRERS } from "./shares.ts";

Deno.test("a link keeps its first 100 referring hosts, direct visits and the rest aside", () => {
  const stats = newLinkStats(null);
  assertEquals(addShare(stats, REFERRER_TALLY, "direct", 1), "direct");
  for (let i = 0; i < MAX_REFERRERS_PER_LINK; i++) {
    assertEquals(addShare(stats, REFERRER_TALLY, `h${i}.example`, 1), `h${i}.example`);
  }
  assertEquals(addShare(stats, REFERRER_TALLY, "late.example", 1), OTHER_REFERRERS);
  assertEquals(addShare(stats, REFERRER_TALLY, "later.example", 2), OTHER_REFERRERS);
  // Known names go on counting under their own.
  assertEquals(addShare(stats, REFERRER_TALLY, "h0.example", 1), "h0.example");
  assertEquals(addShare(stats, REFERRER_TALLY, "direct", 1), "direct");
  const names = stats.shares[REFERRER_TALLY]!;
  assertEquals(Object.keys(names).length, MAX_REFERRERS_PER_LINK + 2);
  assertEquals([names.direct, names[OTHER_REFERRERS], names["h0.example"]], [2, 3, 2]);
});
