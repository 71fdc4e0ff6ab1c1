import { assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { countRequest } from "./mod.ts";

const rule = { name: "test", limit: 5, windowMs: 60_000 };

Deno.test("countRequest allows the limit, then refuses until the window ends", async () => {
  await using store = await memoryStore();
  const decisions = [];
  for (let i = 0; i < 7; i++) decisions.push(await countRequest(store, rule, "a"));
  assertEquals(decisions.map((d) => d.allowed), [true, true, true, true, true, false, false]);
  assertEquals(decisions.map((d) => d.remaining), [4, 3, 2, 1, 0, 0, 0]);
  // The test clock starts on a whole minute, so the window has 60 s left.
  assertEquals(decisions[0]?.retryAfterSeconds, 60);
  store.advance(60_000);
  assertEquals((await countRequest(store, rule, "a")).allowed, true);
});

Deno.test("countRequest keeps each client and each limit apart", async () => {
  await using store = await memoryStore();
  for (let i = 0; i < 5; i++) await countRequest(store, rule, "a");
  assertEquals((await countRequest(store, rule, "b")).allowed, true);
  assertEquals((await countRequest(store, { ...rule, name: "other" }, "a")).allowed, true);
  assertEquals((await countRequest(store, rule, "a")).allowed, false);
});

Deno.test("countRequest is exact under concurrency", async () => {
  await using store = await memoryStore();
  const decisions = await Promise.all(
    Array.from({ length: 40 }, () => countRequest(store, rule, "a")),
  );
  assertEquals(decisions.filter((d) => d.allowed).length, 5);
});
