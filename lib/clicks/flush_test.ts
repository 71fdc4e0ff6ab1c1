import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { chunksOf, linksPerCommit, type LinkVisits } from "./flush.ts";

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
