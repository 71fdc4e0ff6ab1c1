/**
 * A stranger's wait under a flood of password hashes: 13 addresses send 5 protected bulk
 * requests each, and 16 /64s of one /60 send 30 protected creates and 10 wrong unlocks each, all
 * at once (every one within its rate limit); a second later a stranger unlocks a link and makes
 * a protected one. Clients are named by `X-Forwarded-For` (`TRUST_PROXY=1`).
 * @module
 */
import { freshStore, printTable } from "./_lib.ts";
import { startBenchService } from "./_wrk.ts";
import { pause } from "../lib/pause.ts";

/** Measures and prints; `cwd` runs another checkout (a baseline) instead of this one. */
export async function benchHashingFlood(cwd?: string): Promise<void> {
  console.log("\n## A stranger's unlock and protected create under a hashing flood\n");
  await using store = await freshStore();
  store.kv.close(); // the service opens the file itself
  const service = await startBenchService(store.path, {
    pin: false,
    env: { TRUST_PROXY: "1" },
    cwd,
  });
  const post = (path: string, body: unknown, client: string) =>
    fetch(`${service.origin}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": client },
      body: JSON.stringify(body),
    });
  try {
    const locked = { url: "example.com/l", slug: "locked", pass: "pw" };
    const made = await post("/api/create", locked, "10.9.9.9");
    if (made.status !== 201) throw new Error(`create answered ${made.status}`);
    const flood: Promise<number>[] = [];
    const send = (path: string, body: unknown, client: string) =>
      flood.push(
        post(path, body, client).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      );
    const urls = Array.from({ length: 10 }, (_, i) => `example.com/b/${i}`);
    for (let a = 1; a <= 13; a++) {
      for (let i = 0; i < 5; i++) send("/api/bulk", { urls, pass: "x" }, `198.18.0.${a}`);
    }
    for (let n = 0; n < 16; n++) {
      const client = `2001:db8:0:${n.toString(16)}::1`;
      for (let i = 0; i < 30; i++) send("/api/create", { url: "example.com/c", pass: "x" }, client);
      for (let i = 0; i < 10; i++) send("/api/unlock", { slug: "locked", pass: `g${i}` }, client);
    }
    await pause(1000);
    const timed = async (send: () => Promise<Response>) => {
      const start = performance.now();
      const res = await send();
      await res.arrayBuffer();
      return [res.status, ((performance.now() - start) / 1000).toFixed(2)];
    };
    const [unlock, create, open, version] = await Promise.all([
      timed(() => post("/api/unlock", { slug: "locked", pass: "pw" }, "203.0.113.50")),
      timed(() => post("/api/create", { url: "example.com/s", pass: "pw" }, "203.0.113.51")),
      // Beside them, what needs no hash: how busy the service is otherwise.
      timed(() => post("/api/create", { url: "example.com/o" }, "203.0.113.52")),
      timed(() => fetch(`${service.origin}/api/version`)),
    ]);
    const statuses: Record<number, number> = {};
    for (const status of await Promise.all(flood)) statuses[status] = (statuses[status] ?? 0) + 1;
    printTable(["request", "status", "seconds"], [
      ["stranger's unlock", ...unlock!],
      ["stranger's protected create", ...create!],
      ["stranger's open create (no hash)", ...open!],
      ["version (no store, no hash)", ...version!],
    ]);
    console.log(`\nThe flood's ${flood.length} answers by status: ${JSON.stringify(statuses)}`);
  } finally {
    await service[Symbol.asyncDispose]();
  }
}

if (import.meta.main) await benchHashingFlood(Deno.args[0]);
