import { assert, assertEquals, assertRejects } from "../../tests/_helpers/assert.ts";
import { BusyError } from "../errors.ts";
import {
  constantTimeEqual,
  hashPassword,
  HashQueue,
  PBKDF2_ITERATIONS,
  verifyPassword,
} from "./mod.ts";

Deno.test("hashPassword writes a self-describing PBKDF2 string with its own salt", async () => {
  const [a, b] = await Promise.all([hashPassword("secret"), hashPassword("secret")]);
  const [scheme, iterations, salt, hash] = a.split("$");
  assertEquals(scheme, "pbkdf2-sha256");
  assertEquals(Number(iterations), PBKDF2_ITERATIONS);
  assertEquals(atob(salt!).length, 16);
  assertEquals(atob(hash!).length, 32);
  assert(a !== b, "two hashes of one password differ by their salt");
  assert(!a.includes("secret"));
});

Deno.test("verifyPassword accepts the password and refuses anything else", async () => {
  const stored = await hashPassword("correct horse");
  assert(await verifyPassword("correct horse", stored));
  assert(!(await verifyPassword("correct horsE", stored)));
  assert(!(await verifyPassword("", stored)));
  assert(!(await verifyPassword("correct horse", "garbage")));
  assert(!(await verifyPassword("correct horse", "pbkdf2-sha256$x$y$z")));
});

Deno.test("verifyPassword reads the iteration count from the stored string", async () => {
  const stored = await hashPassword("pw");
  const [, , salt, hash] = stored.split("$");
  assert(!(await verifyPassword("pw", `pbkdf2-sha256$1000$${salt}$${hash}`)));
});

Deno.test("hashing does not block the event loop", async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 5);
  await hashPassword("pw");
  clearInterval(timer);
  assert(ticks >= 2, `timers ran ${ticks} times while hashing`);
});

Deno.test("constantTimeEqual compares whole arrays", () => {
  assert(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])));
  assert(!constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4])));
  assert(!constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3])));
  assert(!constantTimeEqual(new Uint8Array([]), new Uint8Array([0])));
});

Deno.test("HashQueue runs at most its concurrency, keeps its capacity waiting, refuses the rest", async () => {
  const queue = new HashQueue(2, 3);
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  let most = 0;
  const job = async () => {
    most = Math.max(most, queue.running);
    await gate;
    return queue.running;
  };
  const taken = Array.from({ length: 5 }, () => queue.run(job));
  assertEquals([queue.running, queue.waiting], [2, 3]);
  await assertRejects(() => queue.run(job), BusyError);
  release();
  await Promise.all(taken);
  assertEquals(most, 2);
  assertEquals([queue.running, queue.waiting], [0, 0]);
  // A failed job gives its place back too.
  await assertRejects(() => queue.run(() => Promise.reject(new Error("boom"))), Error);
  assertEquals(queue.running, 0);
});
