import { assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { InvalidInputError } from "../errors.ts";
import { slugFromReference } from "./reference.ts";

Deno.test("a reference is a bare slug or a short URL of the service host", () => {
  assertEquals(slugFromReference("abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("http://sho.rt/abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("https://www.sho.rt/abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("sho.rt/abc1234", "sho.rt"), "abc1234");
  assertEquals(slugFromReference("HTTP://SHO.RT/Abc", "sho.rt"), "Abc");
  assertEquals(slugFromReference("https://sho.rt/abc1234/", "sho.rt"), "abc1234", "a slash after");
});

Deno.test("a reference to another host, or to no slug, is an invalid slug", async () => {
  for (
    const bad of [
      "https://evil.example/abc",
      "https://sho.rt.evil.example/abc",
      "https://sho.rt/",
      "https://sho.rt/a/b",
      "https://sho.rt//",
      "https://sho.rt/abc//",
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

Deno.test("a reference naming another port than the service's is an invalid slug", async () => {
  const local = { port: "8000" };
  assertEquals(slugFromReference("http://localhost:8000/abc", "localhost", local), "abc");
  assertEquals(slugFromReference("localhost:8000/abc", "localhost", local), "abc");
  assertEquals(slugFromReference("localhost/abc", "localhost", local), "abc", "no port named");
  assertEquals(slugFromReference("https://sho.rt/abc", "sho.rt", { port: "443" }), "abc");
  assertEquals(slugFromReference("http://sho.rt:80/abc", "sho.rt", { port: "80" }), "abc");
  assertEquals(slugFromReference("sho.rt:80/abc", "sho.rt", { port: "80" }), "abc");
  const bad: [string, string, string][] = [
    ["http://localhost:9999/abc", "localhost", "8000"],
    ["localhost:9999/abc", "localhost", "8000"],
    ["sho.rt:8443/abc", "sho.rt", "443"],
  ];
  for (const [reference, host, port] of bad) {
    await assertRejects(
      () => Promise.resolve().then(() => slugFromReference(reference, host, { port })),
      InvalidInputError,
      "invalid slug",
    );
  }
});
