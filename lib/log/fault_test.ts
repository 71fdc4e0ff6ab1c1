import { assertEquals } from "../../tests/_helpers/assert.ts";
import { FaultLog } from "./fault.ts";
import type { LogLine } from "./mod.ts";

function faultLog() {
  const lines: LogLine[] = [];
  let clock = 1_000_000;
  const fault = new FaultLog({
    log: (line) => lines.push(line),
    started: "flush failed",
    lasting: "flush still failing",
    ended: "flush works again",
    now: () => clock,
  });
  return { fault, lines, advance: (ms: number) => clock += ms };
}

Deno.test("a lasting fault is said once as it starts, once a minute while it lasts, once as it ends", () => {
  const { fault, lines, advance } = faultLog();
  const cause = new Error("database or disk is full");
  for (let second = 0; second < 150; second++) {
    fault.failed(cause, { waiting: 10 + second });
    advance(1_000);
  }
  fault.succeeded();
  fault.succeeded();
  assertEquals(lines.map((line) => [line.level, line.msg, line.waiting]), [
    ["error", "flush failed", 10],
    ["warn", "flush still failing", 70],
    ["warn", "flush still failing", 130],
    ["info", "flush works again", undefined],
  ]);
  // The first line carries the cause; the reminders its message and how long it has lasted.
  assertEquals((lines[0]!.error as { message: string }).message, "database or disk is full");
  assertEquals([lines[1]!.error, lines[1]!.failingForMs, lines[1]!.failures], [
    "database or disk is full",
    60_000,
    61,
  ]);
  assertEquals([lines[3]!.failedForMs, lines[3]!.failures], [150_000, 150]);
  assertEquals(fault.failing, false);
});

Deno.test("a failure while nothing waits says nothing, and its end neither", () => {
  const { fault, lines, advance } = faultLog();
  for (let second = 0; second < 120; second++) {
    fault.failed(new Error("store down"), { waiting: 0, figures: 0 });
    advance(1_000);
  }
  fault.succeeded();
  assertEquals(lines.length, 0);
  // Once something waits, the fault is said; later failures with nothing waiting stay quiet.
  fault.failed(new Error("store down"), { waiting: 0, figures: 3 });
  fault.failed(new Error("store down"), { waiting: 0, figures: 0 });
  assertEquals(lines.map((line) => line.msg), ["flush failed"]);
  assertEquals(fault.failing, true);
});

Deno.test("a fault that starts again after it ended is said again", () => {
  const { fault, lines, advance } = faultLog();
  fault.failed(new Error("a"), { waiting: 1 });
  fault.succeeded();
  advance(1_000);
  fault.failed(new Error("b"), { waiting: 1 });
  assertEquals(lines.map((line) => line.msg), [
    "flush failed",
    "flush works again",
    "flush failed",
  ]);
});
