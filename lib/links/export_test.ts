import { assertEquals } from "../../tests/_helpers/assert.ts";
import { csvCell, csvRow, textLine } from "./export.ts";
import type { LinkListEntry } from "./views.ts";

const entry: LinkListEntry = {
  slug: "abc",
  shortUrl: "http://sho.rt/abc",
  url: "https://example.com/a,b",
  host: "example.com",
  title: 'say "hi"',
  note: "line\nbreak",
  clicks: 3,
  protected: false,
  createdAt: "2026-11-01T00:00:00.000Z",
  lastUsedAt: null,
  expiresAt: "2026-11-08T00:00:00.000Z",
  expiresInDays: 7,
  maxVisits: 5,
  visitsLeft: 2,
};

Deno.test("a text line is short URL, destination and deadline, tab separated", () => {
  assertEquals(
    textLine(entry),
    "http://sho.rt/abc\thttps://example.com/a,b\t2026-11-08T00:00:00.000Z\n",
  );
  const withheld = { ...entry, url: null, host: null };
  assertEquals(textLine({ ...withheld, protected: true }).split("\t")[1], "(protected)");
  assertEquals(textLine(withheld).split("\t")[1], "(limited)");
});

Deno.test("a CSV row quotes what needs quoting", () => {
  assertEquals(
    csvRow(entry),
    'abc,http://sho.rt/abc,"https://example.com/a,b",example.com,"say ""hi""","line\nbreak",3,false,2026-11-01T00:00:00.000Z,,2026-11-08T00:00:00.000Z,7,5,2\r\n',
  );
});

Deno.test("a CSV row of a link without a limit leaves its two cells empty", () => {
  const row = csvRow({ ...entry, maxVisits: null, visitsLeft: null });
  assertEquals(row.endsWith(",7,,\r\n"), true);
});

Deno.test("a CSV cell a spreadsheet would run as a formula is defused", () => {
  assertEquals(csvCell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
  assertEquals(csvCell("+1"), "'+1");
  assertEquals(csvCell("-1"), "'-1");
  assertEquals(csvCell("@x"), "'@x");
  assertEquals(csvCell("plain"), "plain");
});
