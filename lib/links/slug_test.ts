import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import {
  CUSTOM_SLUG_PATTERN,
  generateSlug,
  isReservedSlug,
  isSlugLike,
  RESERVED_SLUGS,
} from "./slug.ts";

Deno.test("generateSlug draws seven base62 characters", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const slug = generateSlug();
    assert(/^[0-9A-Za-z]{7}$/.test(slug), slug);
    seen.add(slug);
  }
  assertEquals(seen.size, 2000);
});

Deno.test("generateSlug uses the whole alphabet", () => {
  const chars = new Set([...Array.from({ length: 500 }, generateSlug).join("")]);
  assertEquals(chars.size, 62);
});

Deno.test("generateSlug draws again rather than give a reserved word", () => {
  const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const draws = ["Sitemap", "metrics", "abcdefg"];
  const fill = (bytes: Uint8Array) => {
    bytes.fill(255); // 255 is never taken: it would bias the draw
    [...draws.shift()!].forEach((char, i) => bytes[i] = BASE62.indexOf(char));
  };
  assertEquals(generateSlug(fill), "abcdefg");
});

Deno.test("custom slugs are 3 to 48 of A-Z a-z 0-9 - _ starting with a letter or digit", () => {
  for (const good of ["abc", "A-b_c", "0ab", "x".repeat(48), "Hello-World_2"]) {
    assert(CUSTOM_SLUG_PATTERN.test(good), good);
  }
  for (const bad of ["ab", "-abc", "_abc", "x".repeat(49), "a b", "a.b", "a/b", "ä12", ""]) {
    assert(!CUSTOM_SLUG_PATTERN.test(bad), bad);
  }
});

Deno.test("the reserved check ignores case", () => {
  for (const word of ["docs", "DOCS", "About", "changelog", "api", "static", "islands"]) {
    assert(isReservedSlug(word), word);
  }
  assert(!isReservedSlug("docsx"));
});

Deno.test("the API docs list exactly the reserved words", async () => {
  const docs = await Deno.readTextFile(new URL("../../docs/api.md", import.meta.url));
  const list = docs.match(/Reserved words cannot be slugs, in any case:\s*`([^`]+)`/)?.[1] ?? "";
  assertEquals(list.split(/\s+/).sort(), [...RESERVED_SLUGS].sort());
});

Deno.test("the contract's reserved words are all reserved", () => {
  const words = "docs about changelog api static islands health stats links new create unlock " +
    "preview export admin login logout settings assets sitemap index";
  for (const word of words.split(" ")) assert(isReservedSlug(word), word);
});

Deno.test("isSlugLike accepts short legacy slugs but nothing with other characters", () => {
  assert(isSlugLike("a"));
  assert(isSlugLike("ab"));
  assert(!isSlugLike("a.b"));
  assert(!isSlugLike("a/b"));
  assert(!isSlugLike("x".repeat(49)));
});
