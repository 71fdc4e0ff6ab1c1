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
      "ftp://sho.rt/abc",
    ]
  ) {
    await assertRejects(
      () => Promise.resolve().then(() => slugFromReference(bad, "sho.rt")),
      InvalidInputError,
      "invalid slug",
    );
  }
});

Deno.test("a reference on another port than the service's is an invalid slug", async () => {
  const local = { port: "8000" };
  assertEquals(slugFromReference("http://localhost:8000/abc", "localhost", local), "abc");
  assertEquals(slugFromReference("localhost:8000/abc", "localhost", local), "abc");
  assertEquals(slugFromReference("https://sho.rt/abc", "sho.rt", { port: "" }), "abc");
  assertEquals(slugFromReference("http://sho.rt:80/abc", "sho.rt", { port: "" }), "abc");
  for (const [bad, port] of [["http://localhost:9999/abc", "8000"], ["localhost/abc", "8000"]]) {
    await assertRejects(
      () => Promise.resolve().then(() => slugFromReference(bad!, "localhost", { port })),
      InvalidInputError,
      "invalid slug",
    );
  }
});
