import { assertEquals } from "../../tests/_helpers/assert.ts";
import { memoryStore } from "../../tests/_helpers/store.ts";
import { loadUnlockKey, signUnlockToken, verifyUnlockToken } from "./token.ts";

const link = { slug: "abc", id: "01JABCDEF" };
const now = 1_000_000;

Deno.test("a signed token unlocks its link until it expires", async () => {
  await using store = await memoryStore();
  const key = await loadUnlockKey(store, "s".repeat(32));
  const token = await signUnlockToken(key, link, now + 1000);
  assertEquals(await verifyUnlockToken(key, "abc", token, now), link.id);
  assertEquals(await verifyUnlockToken(key, "abc", token, now + 1000), null);
});

Deno.test("a forged, tampered or other link's token unlocks nothing", async () => {
  await using store = await memoryStore();
  const key = await loadUnlockKey(store, "s".repeat(32));
  const other = await loadUnlockKey(store, "t".repeat(32));
  const token = await signUnlockToken(key, link, now + 1000);
  const [id, expires, mac] = token.split(".");
  const cases = [
    await signUnlockToken(other, link, now + 1000), // another key
    `${id}.${Number(expires) + 1}.${mac}`, // deadline moved
    `01JOTHER.${expires}.${mac}`, // another link id
    `${id}.${expires}.${mac!.slice(0, -2)}AA`, // mac changed
    `${id}.${expires}`,
    `${token}.extra`,
    "",
    "garbage",
  ];
  for (const forged of cases) {
    assertEquals(await verifyUnlockToken(key, "abc", forged, now), null, forged);
  }
  assertEquals(await verifyUnlockToken(key, "abd", token, now), null);
});

Deno.test("the generated secret is made once and shared by every instance on the store", async () => {
  await using store = await memoryStore();
  const [a, b] = await Promise.all([loadUnlockKey(store), loadUnlockKey(store)]);
  const token = await signUnlockToken(a, link, now + 1000);
  assertEquals(await verifyUnlockToken(b, "abc", token, now), link.id);
});
