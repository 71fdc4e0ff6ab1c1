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

/**
 * A stand-in for the hasher: each hash runs until {@linkcode FakeHasher.finish} ends the oldest
 * running one, which moves a virtual clock on by `hashMs`.
 */
class FakeHasher {
  /** Virtual milliseconds since the start. */
  now = 0;
  /** Clients whose hashes started, in order. */
  started: string[] = [];
  #running: (() => void)[] = [];

  constructor(readonly queue: HashQueue, readonly hashMs: number) {}

  /** Asks the queue for one hash for `client`; resolves to the virtual time it ends. */
  hash(client: string): Promise<number> {
    return this.queue.run(() => {
      this.started.push(client);
      return new Promise<number>((resolve) => this.#running.push(() => resolve(this.now)));
    }, { client });
  }

  /** Ends the oldest running hash, and lets the queue start the next. */
  async finish(): Promise<void> {
    const end = this.#running.shift();
    if (!end) throw new Error("no hash is running");
    this.now += this.hashMs;
    end();
    await new Promise((resolve) => setTimeout(resolve, 0)); // every promise settled
  }
}

Deno.test("HashQueue starts the hash of the client that asked for fewest since it was idle", async () => {
  const fake = new FakeHasher(new HashQueue(1, 64), 90);
  const done: Promise<number>[] = [];
  for (let i = 0; i < 5; i++) done.push(fake.hash("a"));
  for (let i = 0; i < 2; i++) done.push(fake.hash("b"));
  done.push(fake.hash("c"));
  assertEquals([fake.queue.running, fake.queue.waiting], [1, 7]);
  assertEquals([fake.queue.waitingOf("a"), fake.queue.waitingOf("b")], [4, 2]);
  for (let i = 0; i < 8; i++) await fake.finish();
  await Promise.all(done);
  // c asked for one, b for two, a for five: each goes in the order of what it asked for.
  assertEquals(fake.started, ["a", "c", "b", "b", "a", "a", "a", "a"]);
  assertEquals([fake.queue.running, fake.queue.waiting], [0, 0]);
  // Idle again, the queue forgets what each asked for: a, first to wait, goes before c.
  const again = [fake.hash("x"), fake.hash("a"), fake.hash("c")];
  for (let i = 0; i < 3; i++) await fake.finish();
  await Promise.all(again);
  assertEquals(fake.started.slice(8), ["x", "a", "c"]);
});

Deno.test("HashQueue makes room for a client by refusing the newest hash of one holding more", async () => {
  const fake = new FakeHasher(new HashQueue(1, 4), 90);
  const outcomes: Promise<number | string>[] = [];
  const ask = (client: string) =>
    outcomes.push(fake.hash(client).catch((error) => `${client} ${error.constructor.name}`));
  for (let i = 0; i < 5; i++) ask("a"); // one running, four waiting: full
  ask("b"); // a's fourth waiting is refused to let b wait
  ask("c"); // and a's third
  ask("d"); // and a's second: now a, b, c, d wait one each
  assertEquals(fake.queue.waiting, 4);
  // No client holds more than its share: a fifth client is refused at once.
  await assertRejects(() => fake.hash("e"), BusyError);
  // Nor may a client already waiting push another out to wait twice.
  await assertRejects(() => fake.hash("b"), BusyError);
  for (let i = 0; i < 5; i++) await fake.finish();
  const settled = await Promise.all(outcomes);
  assertEquals(settled.filter((outcome) => typeof outcome === "string"), [
    "a BusyError",
    "a BusyError",
    "a BusyError",
  ]);
  assertEquals(fake.started, ["a", "b", "c", "d", "a"]);
});

Deno.test("HashQueue: with 16 clients keeping it full, a stranger's hash ends in 2 hashes' time", async () => {
  // The service's queue on 2 cores: one hash at a time, 64 waiting, ~90 ms a hash.
  const fake = new FakeHasher(new HashQueue(1, 64), 90);
  const attackers = Array.from({ length: 16 }, (_, i) => `2001:db8:0:${i}::/64`);
  // Each attacker asks for more than the queue holds, and again as soon as a hash of theirs
  // ends: the queue stays full.
  let attacking = true;
  const keepAsking = async (client: string): Promise<void> => {
    try {
      while (attacking) await fake.hash(client);
    } catch {
      // refused: this one stops
    }
  };
  for (let round = 0; round < 5; round++) attackers.forEach((client) => keepAsking(client));
  const strangerWaits = async (stranger: string): Promise<number> => {
    assert(fake.queue.waiting >= 63, `${fake.queue.waiting} waiting`); // full, or all but one
    const asked = fake.now;
    let ended: number | undefined;
    fake.hash(stranger).then((at) => ended = at);
    while (ended === undefined) await fake.finish();
    return ended - asked;
  };
  // The hash running when it asked, then its own: it asked for one, each attacker for more. So
  // at the start of the flood, and once the attack has run 32 hashes (about 3 s).
  assertEquals(await strangerWaits("198.51.100.6"), 2 * 90);
  for (let i = 0; i < 32; i++) await fake.finish();
  const waited = await strangerWaits("198.51.100.7");
  assert(waited <= 2000, `the stranger waited ${waited} ms`);
  assertEquals(waited, 2 * 90);
  attacking = false;
  while (fake.queue.running > 0) await fake.finish();
});
