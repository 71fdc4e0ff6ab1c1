import { assertEquals } from "../../tests/_helpers/assert.ts";
import { describeError, logLine, stdoutLogger } from "./mod.ts";

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

Deno.test("the stdout logger gathers lines and writes them together, in order", async () => {
  const chunks: string[] = [];
  const writer = {
    write(bytes: Uint8Array) {
      chunks.push(new TextDecoder().decode(bytes));
      return Promise.resolve(bytes.length);
    },
  };
  const log = stdoutLogger({ writer, delayMs: 5 });
  log(logLine("info", "first", { n: 1 }));
  log.json!('{"msg":"second"}');
  assertEquals(chunks.length, 0);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assertEquals(chunks.length, 1);
  const lines = chunks[0]!.trimEnd().split("\n").map((line) => JSON.parse(line));
  assertEquals(lines.map((line) => line.msg), ["first", "second"]);
  log(logLine("info", "third"));
  await log.flush!();
  assertEquals(chunks.length, 2);
});

Deno.test("the stdout logger writes at once when its buffer fills, and finishes partial writes", async () => {
  const decoder = new TextDecoder();
  let text = "";
  const writer = {
    write(bytes: Uint8Array) {
      const part = bytes.subarray(0, Math.min(700, bytes.length)); // a writer that takes little
      text += decoder.decode(part, { stream: true });
      return Promise.resolve(part.length);
    },
  };
  const log = stdoutLogger({ writer, delayMs: 60_000, maxBuffered: 1024 });
  const long = "é".repeat(1100); // more characters than the logger holds back
  log(logLine("info", long));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(JSON.parse(text).msg, long);
  log(logLine("info", "short"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(text.trimEnd().split("\n").length, 1, "a short line waits for the delay");
  await log.flush!();
  assertEquals(JSON.parse(text.trimEnd().split("\n")[1]!).msg, "short");
});
