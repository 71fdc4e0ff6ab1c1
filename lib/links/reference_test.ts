import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { InvalidInputError } from "../errors.ts";
import { slugFromReference } from "./reference.ts";

Deno.test("a reference is a bare slug or a short URL of the service host", () => {
  assertEquals(slugFromReference("abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("http://sho.rt/abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("https://www.sho.rt/abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("sho.rt/abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("HTTP://SHO.RT/Abc", "sho.rt"), "Abc");
});

Deno.test("a reference to another host, or to no slug, is an invalid slug", async () => {
  for (
    const bad of [
      "https://evil.example/abc",
      "https://sho.rt.evil.example/abc",
      "https://sho.rt/",
      "https://sho.rt/a/b",
      "a b",
      "https://sho.rt/%zz",
    ]
  ) {
    await assertRejects(
      () => Promise.resolve().then(() => slugFromReference(bad, "sho.rt")),
      InvalidInputError,
      "invalid slug",
    );
  }
});
