import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";

Deno.test("POST /api/create answers 201 with the new link", async () => {
  await using t = await testApp();
  const res = await t.json("/api/create", { url: "example.com/page", title: "Hi" });
  assertEquals(res.status, 201);
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  const body = await res.json();
  assertEquals(body.url, "https://example.com/page");
  assertEquals(body.title, "Hi");
  assertEquals(body.protected, false);
  assertEquals(body.expiresInDays, 7);
  assert(/^[A-Za-z0-9]{7}$/.test(body.slug));
  assertEquals(body.shortUrl, `http://sho.rt/${body.slug}`);
  const follow = await t.request(`/${body.slug}`);
  assertEquals(follow.status, 302);
  assertEquals(follow.headers.get("location"), "https://example.com/page");
});
