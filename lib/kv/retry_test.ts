import { assert, assertEquals } from "../../tests/_helpers/assert.ts";
import { StoreUnavailableError } from "../errors.ts";
import { isLocked, retryLocked } from "./retry.ts";

const locked = () => new Error("database is locked");

Deno.test("a locked store is tried again until the operation goes through", async () => {
  let calls = 0;
  const result = await retryLocked(() => {
    calls++;
    return calls < 4 ? Promise.reject(locked()) : Promise.resolve("done");
  });
  assertEquals(result, "done");
  assertEquals(calls, 4);
});

Deno.test("a store locked for longer than the budget gives up with the lock error", async () => {
  let calls = 0;
  const started = performance.now();
  const error = await retryLocked(() => {
    calls++;
    return Promise.reject(locked());
  }, { withinMs: 150 }).catch((error) => error);
  const took = performance.now() - started;
  assert(isLocked(error), String(error));
  assert(took >= 150, `gave up after ${took} ms, before its budget`);
  assert(took < 1000, `kept trying for ${took} ms, well past its budget`);
  assert(calls > 2, `tried ${calls} times`);
});

Deno.test("any other failure is thrown at once, untried", async () => {
  let calls = 0;
  const error = await retryLocked(() => {
    calls++;
    return Promise.reject(new Error("disk I/O error"));
  }).catch((error) => error);
  assertEquals(calls, 1);
  assertEquals((error as Error).message, "disk I/O error");
});

Deno.test("a lock wrapped as the store being unavailable still counts as a lock", () => {
  assert(isLocked(new StoreUnavailableError(locked())));
  assert(!isLocked(new StoreUnavailableError(new Error("no space left"))));
});
