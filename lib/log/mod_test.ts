import { assertEquals } from "../../tests/_helpers/assert.ts";
import { describeError, logLine, stdoutLogger } from "./mod.ts";

/** A writer that keeps each write it is given, decoded; `written()` waits for the next one. */
function collectingWriter() {
  const chunks: string[] = [];
  let next = Promise.withResolvers<void>();
  const writer = {
    write(bytes: Uint8Array) {
      chunks.push(new TextDecoder().decode(bytes));
      next.resolve();
      next = Promise.withResolvers<void>();
      return Promise.resolve(bytes.length);
    },
  };
  return { writer, chunks, written: () => next.promise };
}

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
  const { writer, chunks, written } = collectingWriter();
  const log = stdoutLogger({ writer, delayMs: 5 });
  log(logLine("info", "first", { n: 1 }));
  log.later!({ msg: "second" }, JSON.stringify);
  assertEquals(chunks.length, 0);
  await written(); // once the delay has passed
  assertEquals(chunks.length, 1);
  const lines = chunks[0]!.trimEnd().split("\n").map((line) => JSON.parse(line));
  assertEquals(lines.map((line) => line.msg), ["first", "second"]);
  log(logLine("info", "third"));
  await log.flush!();
  assertEquals(chunks.length, 2);
});

Deno.test("the stdout logger writes at once when enough lines wait, and finishes partial writes", async () => {
  const decoder = new TextDecoder();
  let text = "";
  const writer = {
    write(bytes: Uint8Array) {
      const part = bytes.subarray(0, Math.min(700, bytes.length)); // a writer that takes little
      text += decoder.decode(part, { stream: true });
      return Promise.resolve(part.length);
    },
  };
  const log = stdoutLogger({ writer, delayMs: 60_000, maxLines: 2 });
  const long = "é".repeat(1100); // 2,200 bytes in UTF-8: several partial writes
  log(logLine("info", long));
  log(logLine("info", "second"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(text.trimEnd().split("\n").map((line) => JSON.parse(line).msg), [long, "second"]);
  log(logLine("info", "third"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assertEquals(text.trimEnd().split("\n").length, 2, "a lone line waits for the delay");
  await log.flush!();
  assertEquals(JSON.parse(text.trimEnd().split("\n")[2]!).msg, "third");
});

Deno.test("a line logged for later is rendered when the lines are written, not before", async () => {
  const { writer, chunks } = collectingWriter();
  const log = stdoutLogger({ writer, delayMs: 60_000 });
  let rendered = 0;
  const render = (fields: { n: number }) => {
    rendered++;
    return JSON.stringify({ msg: "later", n: fields.n });
  };
  log.later!({ n: 1 }, render);
  log.later!({ n: 2 }, render);
  assertEquals(rendered, 0);
  await log.flush!();
  assertEquals(rendered, 2);
  assertEquals(chunks.join("").trimEnd().split("\n").map((line) => JSON.parse(line).n), [1, 2]);
});

Deno.test("a line that cannot be rendered is written as an error, and costs no other line", async () => {
  const { writer, chunks } = collectingWriter();
  const log = stdoutLogger({ writer, delayMs: 60_000 });
  log(logLine("info", "before"));
  log.later!(null, () => {
    throw new Error("cannot render");
  });
  log(logLine("info", "after"));
  await log.flush!();
  const lines = chunks.join("").trimEnd().split("\n").map((line) => JSON.parse(line));
  assertEquals(lines.map((line) => line.msg), [
    "before",
    "a log line could not be written",
    "after",
  ]);
  assertEquals(lines[1].level, "error");
  assertEquals(lines[1].error.message, "cannot render");
});
