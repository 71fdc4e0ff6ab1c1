import { assertEquals } from "../../tests/_helpers/assert.ts";
import type { DatedLinkRecord } from "../../lib/links/record.ts";
import { redirectTo } from "./short_link.ts";

function record(): DatedLinkRecord {
  return {
    id: "01J0000000000000000000000",
    slug: "abc",
    url: "https://example.com/a?b=1",
    title: "",
    note: "",
    passHash: null,
    createdAt: 1,
    expiresAt: 2,
  };
}

Deno.test("each 302 of a record is its own, and the record stays as it was", async () => {
  const link = record();
  const [first, second] = [redirectTo(link), redirectTo(link)];
  assertEquals(first === second, false, "a response of its own each time");
  for (const answer of [first, second]) {
    assertEquals(answer.status, 302);
    assertEquals(answer.headers.get("location"), link.url);
    assertEquals(answer.headers.get("cache-control"), "no-store");
    assertEquals(answer.headers.get("referrer-policy"), "unsafe-url");
    assertEquals(answer.headers.get("access-control-allow-origin"), "*");
    assertEquals(await answer.text(), "");
  }
  // What a view, a copy or a store write reads of the record is what it was.
  assertEquals(Object.keys(link), Object.keys(record()));
  assertEquals({ ...link }, record());
  assertEquals(JSON.stringify(link), JSON.stringify(record()));
  assertEquals(structuredClone(link), record());
});

Deno.test("a frozen record still gets its 302", () => {
  const link = Object.freeze(record());
  assertEquals(redirectTo(link).headers.get("location"), link.url);
  assertEquals(redirectTo(link).status, 302);
});
