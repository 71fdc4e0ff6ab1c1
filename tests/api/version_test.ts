import { assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";

Deno.test("GET /api/version names 1.1.0 of 2026-10-04 and its changes", async () => {
  await using t = await testApp();
  const res = await t.request("/api/version");
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.version, "1.1.0");
  assertEquals(body.released, "2026-10-04");
  assertEquals(body.commits, null);
  assertEquals(body.latest.version, "1.1.0");
  assertEquals(body.latest.date, "2026-10-04");
  assertEquals(Object.keys(body.latest.changes).sort(), ["added", "changed", "fixed"]);
  const text = JSON.stringify(body.latest.changes).toLowerCase();
  for (
    const change of [
      "seven-day expiry",
      "expiresat",
      "sweep",
      "bulk",
      "unshorten",
      "export",
      "404",
      "reserved",
    ]
  ) {
    assertEquals(text.includes(change), true, change);
  }
});

Deno.test("GET /api/changelog holds every release, newest first", async () => {
  await using t = await testApp();
  const body = await (await t.request("/api/changelog")).json();
  assertEquals(body.version, "1.1.0");
  assertEquals(body.releases[0], body.latest);
  const dates = body.releases.map((r: { date: string }) => r.date);
  assertEquals(dates, [...dates].sort().reverse());
  for (const release of body.releases) {
    assertEquals(Object.keys(release).sort(), ["changes", "date", "title", "version"]);
  }
});

Deno.test("deno.json's version is the running release", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  await using t = await testApp();
  assertEquals(config.version, (await (await t.request("/api/version")).json()).version);
});
