import { assertEquals } from "../../tests/_helpers/assert.ts";
import { describeError, logLine } from "./mod.ts";

Deno.test("a log line starts with its time, level and message", () => {
  const line = logLine("info", "request", { status: 200 });
  assertEquals(Object.keys(line), ["time", "level", "msg", "status"]);
  assertEquals(new Date(line.time).toISOString(), line.time);
});

Deno.test("an error is described with its name, message and cause", () => {
  const error = new TypeError("outer", { cause: new Error("inner") });
  const described = describeError(error);
  assertEquals(described.name, "TypeError");
  assertEquals(described.message, "outer");
  assertEquals((described.cause as Record<string, unknown>).message, "inner");
  assertEquals(describeError("plain"), { message: "plain" });
});
