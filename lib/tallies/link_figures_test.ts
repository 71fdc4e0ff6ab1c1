import { assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { record, visit } from "../../testing/visits.ts";
import { ClickBuffer } from "../clicks/buffer.ts";
import { createLink } from "../links/create.ts";
import { removeLink } from "../links/remove.ts";
import { readLinkFigures, readOneLinkFigures } from "./link_figures.ts";

const options = { serviceHost: "sho.rt" };

Deno.test("one link's figures: from its record once written", async () => {
  await using store = await memoryStore();
  const link = await createLink(store, { url: "example.com", slug: "one" }, options);
  assertEquals(await readOneLinkFigures(store, link.id), {
    clicks: 0,
    lastUsedAt: null,
    days: {},
    referrers: {},
    devices: {},
    countries: {},
  });
  const buffer = new ClickBuffer(store);
  record(buffer, link, visit({ referer: "https://news.example/" }));
  record(buffer, link, visit({ userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" }));
  await buffer.flush();
  assertEquals(await readOneLinkFigures(store, link.id), {
    clicks: 1,
    lastUsedAt: store.now(),
    days: { "2026-11-02": 1 },
    referrers: { "news.example": 1 },
    devices: { desktop: 1, bot: 1 },
    countries: { GB: 1 },
  });
  await removeLink(store, "one");
  assertEquals(await readLinkFigures(store, [link.id, "never"]), [null, null]);
});

Deno.test("a link's clicks are read as its journal has them, ahead of its record", async () => {
  await using store = await memoryStore();
  const links = await Promise.all(
    ["a1", "b2"].map((slug) => createLink(store, { url: "example.com", slug }, options)),
  );
  const buffer = new ClickBuffer(store, { statsLagMs: 60_000 });
  record(buffer, links[1]!, visit());
  record(buffer, links[1]!, visit({ client: "81.2.69.161" }));
  // A few ticks: the clicks written, the figures left waiting.
  for (let i = 0; i < 3; i++) await buffer.tick();
  const figures = await readLinkFigures(store, links.map((link) => link.id));
  assertEquals(figures.map((link) => link?.clicks), [0, 2]);
  assertEquals(figures[1]?.lastUsedAt, null, "last use waits for the slower cadence");
  await buffer.stop();
  const written = await readOneLinkFigures(store, links[1]!.id);
  assertEquals([written?.clicks, written?.lastUsedAt], [2, store.now()], "counted once written");
});
