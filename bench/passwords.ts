/**
 * The cost of protection: one password hash, and a ten-row protected bulk request.
 * @module
 */
import { loadConfig } from "../fresh.config.ts";
import { hashPassword, verifyPassword } from "../lib/passwords/mod.ts";
import { silentLogger } from "../lib/log/mod.ts";
import { createDeps } from "../routes/_lib/deps.ts";
import { createApp } from "../routes/mod.ts";
import { fixed, freshStore, percentiles, printTable } from "./_lib.ts";

/** Measures and prints. */
export async function benchPasswords(): Promise<void> {
  console.log("\n## Password hashing (PBKDF2-SHA256, 600,000 iterations)\n");
  const hashes: number[] = [];
  let stored = "";
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    stored = await hashPassword("correct horse battery staple");
    hashes.push(performance.now() - start);
  }
  const verifies: number[] = [];
  for (let i = 0; i < 10; i++) {
    const start = performance.now();
    await verifyPassword("correct horse battery staple", stored);
    verifies.push(performance.now() - start);
  }
  await using store = await freshStore();
  const config = loadConfig({ BASE_URL: "http://bench.invalid", KV_PATH: store.path });
  const app = createApp(await createDeps(config, store, { log: silentLogger() }));
  const bulks: number[] = [];
  for (let i = 0; i < 5; i++) {
    const body = JSON.stringify({
      urls: Array.from({ length: 10 }, (_, row) => `https://example.com/${i}/${row}`),
      pass: "correct horse battery staple",
    });
    const start = performance.now();
    const res = await app.request("/api/bulk", { method: "POST", body }, {
      remoteAddr: { hostname: `10.0.0.${i}` },
    });
    await res.arrayBuffer();
    bulks.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`bulk answered ${res.status}`);
  }
  printTable(["operation", "runs", "p50 ms", "max ms"], [
    ["hash one password", 10, fixed(percentiles(hashes).p50, 1), fixed(Math.max(...hashes), 1)],
    [
      "verify one password",
      10,
      fixed(percentiles(verifies).p50, 1),
      fixed(Math.max(...verifies), 1),
    ],
    ["bulk, 10 protected rows", 5, fixed(percentiles(bulks).p50, 1), fixed(Math.max(...bulks), 1)],
  ]);
}

if (import.meta.main) await benchPasswords();
