import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { OTHER_REFERRERS } from "../tallies/shares.ts";
import { addJournal, journalLine, PART_BYTES, readJournal } from "./journal.ts";
import { deltasOf, type LinkVisits } from "./visits.ts";

function link(id: string, visits: string[]): LinkVisits {
  return {
    slug: `s-${id}`,
    id,
    title: "Ünïcode title",
    clicks: visits.length / 3,
    bots: 0,
    lastUsedAt: 7,
    day: "2026-11-23",
    visits,
  };
}

Deno.test("a link with more referring hosts in a second than a part holds counts the rarest as other", async () => {
  await using store = await memoryStore();
  const visits: string[] = [];
  for (let i = 0; i < 3_000; i++) visits.push("desktop", `${"r".repeat(200)}${i}.example`, "GB");
  visits.push("desktop", "often.example", "GB", "desktop", "often.example", "GB");
  const line = journalLine(deltasOf(link("big", visits)));
  assert(line.bytes <= PART_BYTES, `${line.bytes} bytes`);
  const referrers = new Map<string, number>();
  for (let i = 0; i < line.deltas.referrers.length; i += 2) {
    referrers.set(line.deltas.referrers[i] as string, line.deltas.referrers[i + 1] as number);
  }
  assertEquals([...referrers.values()].reduce((a, b) => a + b, 0), 3_002, "no visit is lost");
  assertEquals(referrers.get("often.example"), 2, "the most frequent are kept by name");
  assert((referrers.get(OTHER_REFERRERS) ?? 0) > 1_000);
  const atomic = store.kv.atomic();
  const parts = addJournal(atomic, "w1", 1, [line]);
  assert((await atomic.commit()).ok, "the store takes the part");
  const [stored] = await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }));
  assertEquals(stored!.key, parts[0]!.part.key);
  assertEquals(readJournal(stored!.value), [{ ...line.deltas, slug: "", title: "" }]);
});

Deno.test("lines past a part's bytes go in parts of their own", () => {
  const lines = Array.from({ length: 300 }, (_, i) => {
    const visits: string[] = [];
    for (let v = 0; v < 20; v++) visits.push("mobile", `host${v}-${"x".repeat(40)}.example`, "DE");
    return journalLine(deltasOf(link(`id${i}`, visits)));
  });
  const parts = addJournal(fakeAtomic(), "w1", 9, lines);
  assert(parts.length > 1, `${parts.length} parts`);
  for (const { lines: inPart, part } of parts) {
    assert(inPart.reduce((sum, line) => sum + line.bytes, 0) <= PART_BYTES);
    assertEquals(part.left, inPart.length);
    assertEquals(part.commit, 9);
  }
  assertEquals(parts.flatMap((p) => p.lines).length, 300);
});

Deno.test("a part that does not read as deltas reads as none, and odd counts are left out", () => {
  assertEquals(readJournal(["id", "slug"]), []);
  assertEquals(readJournal("nonsense\nid\tx"), []);
  const [one] = readJournal("id\tz\t2026-11-23\t2\tdesktop 2 bot x\tnews.example -1\tGB 2");
  assertEquals(one!.clicks, 2);
  assertEquals(one!.lastUsedAt, 35);
  assertEquals(one!.days, ["2026-11-23", 2]);
  assertEquals(one!.devices, ["desktop", 2]);
  assertEquals(one!.referrers, []);
  assertEquals(one!.countries, ["GB", 2]);
});

function fakeAtomic(): Deno.AtomicOperation {
  return { set: () => fakeAtomic() } as unknown as Deno.AtomicOperation;
}
