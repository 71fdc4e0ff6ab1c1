import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { OTHER_REFERRERS } from "../tallies/shares.ts";
import { addJournal, journalLine, JournalLines, PART_BYTES, readJournal } from "./journal.ts";
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
  const lines = new JournalLines();
  lines.add(link("big", visits));
  assert(lines.bytes <= PART_BYTES, `${lines.bytes} bytes`);
  const atomic = store.kv.atomic();
  const parts = addJournal(atomic, "w1", 1, lines);
  assert((await atomic.commit()).ok, "the store takes the part");
  const [stored] = await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }));
  assertEquals(stored!.key, parts[0]!.part.key);
  assert((stored!.value as string).length <= PART_BYTES);
  const [read] = readJournal(stored!.value);
  const referrers = new Map<string, number>();
  for (let i = 0; i < read!.referrers.length; i += 2) {
    referrers.set(read!.referrers[i] as string, read!.referrers[i + 1] as number);
  }
  assertEquals([...referrers.values()].reduce((a, b) => a + b, 0), 3_002, "no visit is lost");
  assertEquals(referrers.get("often.example"), 2, "the most frequent are kept by name");
  assert((referrers.get(OTHER_REFERRERS) ?? 0) > 1_000);
  assertEquals(read!.clicks, 3_002);
});

Deno.test("a line written from a link's visits reads back as the link's deltas", () => {
  const many: string[] = [];
  for (let i = 0; i < 40; i++) many.push(i % 3 ? "mobile" : "desktop", `h${i % 20}.example`, "FR");
  const links = [
    link("one", ["desktop", "news.example", "GB"]),
    { ...link("bots", ["bot", "", "", "bot", "", ""]), clicks: 0, bots: 2 },
    {
      ...link("mixed", ["bot", "", "", "tablet", "direct", "DE", "tablet", "bücher.example", "DE"]),
      clicks: 2,
      bots: 1,
      lastUsedAt: 1_764_633_600_123,
    },
    link("many", many),
  ];
  const lines = new JournalLines();
  for (const one of links) lines.add(one);
  assertEquals(lines.size, 4);
  const text = lines.text(0, lines.size);
  assertEquals(text, links.map((one) => journalLine(deltasOf(one)).text).join("\n"));
  assertEquals(
    readJournal(text),
    links.map((one) => ({ ...deltasOf(one), slug: "", title: "" })),
  );
  lines.clear();
  lines.add(links[0]!);
  assertEquals(lines.text(0, 1), journalLine(deltasOf(links[0]!)).text, "cleared, written anew");
});

Deno.test("lines past a part's bytes go in parts of their own", () => {
  const lines = new JournalLines();
  for (let i = 0; i < 300; i++) {
    const visits: string[] = [];
    for (let v = 0; v < 20; v++) visits.push("mobile", `host${v}-${"x".repeat(40)}.example`, "DE");
    lines.add(link(`id${i}`, visits));
  }
  const values: string[] = [];
  const parts = addJournal(fakeAtomic(values), "w1", 9, lines);
  assert(parts.length > 1, `${parts.length} parts`);
  parts.forEach(({ lines: inPart, part }, i) => {
    assert(values[i]!.length <= PART_BYTES, `${values[i]!.length} bytes`);
    assertEquals(values[i]!.split("\n").length, inPart);
    assertEquals(part.left, inPart);
    assertEquals(part.commit, 9);
  });
  assertEquals(parts.reduce((sum, p) => sum + p.lines, 0), 300);
  assertEquals(
    readJournal(values.join("\n")).map((one) => one.id),
    Array.from({ length: 300 }, (_, i) => `id${i}`),
  );
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

/** An atomic operation that keeps the values set in `values`. */
function fakeAtomic(values: unknown[]): Deno.AtomicOperation {
  const atomic = {
    set: (_key: Deno.KvKey, value: unknown) => {
      values.push(value);
      return atomic;
    },
  };
  return atomic as unknown as Deno.AtomicOperation;
}

Deno.test("a line cut down is cut where a line of text was, and tells what it holds", () => {
  const visits: string[] = [];
  for (let i = 0; i < 2_000; i++) {
    visits.push("desktop", `h${String(i).padStart(6, "0")}.example`, "GB");
  }
  const whole = lineOfLength(visits, 0).length;
  // Lines less than 8 bytes short of a part, which its estimate adds to each line, are cut too.
  for (const short of [0, 4, 7, 8]) {
    const big = link("x".repeat(PART_BYTES - whole - short), visits);
    const lines = new JournalLines();
    const cut = lines.add(big);
    const old = journalLine(deltasOf({ ...big, visits: [...visits] }));
    assertEquals(lines.text(0, 1), old.text, `${short} bytes short`);
    assertEquals(cut === null, short >= 8, `${short} bytes short`);
    if (cut !== null) assertEquals(cut.referrers, old.deltas.referrers);
  }
});

Deno.test("a part with a character past ASCII is cut as the store keeps it, two bytes each", async () => {
  await using store = await memoryStore();
  const lines = new JournalLines();
  const plain: string[] = [];
  for (let i = 0; i < 400; i++) plain.push("desktop", `site${i}-${"x".repeat(80)}.example`, "GB");
  lines.add(link("plain", plain));
  lines.add(link("euro", ["desktop", "€.example", "GB"]));
  const atomic = store.kv.atomic();
  const parts = addJournal(atomic, "w1", 1, lines);
  assertEquals(parts.length, 2, "the wide line goes in a part of its own");
  assert((await atomic.commit()).ok, "the store takes every part");
  const stored = await Array.fromAsync(store.kv.list({ prefix: ["click_journal"] }));
  assertEquals(stored.flatMap((entry) => readJournal(entry.value)).map((one) => one.id), [
    "plain",
    "euro",
  ]);
});

Deno.test("a time or count that is not a whole number is written as one", () => {
  const lines = new JournalLines();
  lines.add({ ...link("odd", ["desktop", "news.example", "GB"]), lastUsedAt: Infinity });
  lines.add({ ...link("half", ["desktop", "news.example", "GB"]), lastUsedAt: 71.5 });
  const [odd, half] = readJournal(lines.text(0, 2));
  assertEquals([odd!.lastUsedAt, half!.lastUsedAt], [0, 71]);
});

/** The text of a line of `visits` under an id of `idLength` characters, never cut. */
function lineOfLength(visits: string[], idLength: number): string {
  const deltas = deltasOf(link("x".repeat(idLength), visits));
  return `${deltas.id}\t${deltas.lastUsedAt.toString(36)}\t2026-11-23\t${deltas.clicks}\t` +
    `${deltas.devices.join(" ")}\t${deltas.referrers.join(" ")}\t${deltas.countries.join(" ")}`;
}
