/**
 * `/api/stats` latency with 1,000 and with 100,000 live links: its cost must not grow with the
 * number of links (goal: ratio <= 1.5, p50 <= 20 ms at 100,000).
 * @module
 */
import { loadConfig } from "../fresh.config.ts";
import { silentLogger } from "../lib/log/mod.ts";
import { createDeps } from "../routes/_lib/deps.ts";
import { createApp } from "../routes/mod.ts";
import { fixed, freshStore, percentiles, printTable, seedClicks, seedLinks } from "./_lib.ts";

const REQUESTS = 300;

/** Measures `/api/stats` at each size; returns p50 per size. */
export async function benchStats(sizes = [1_000, 100_000]): Promise<Map<number, number>> {
  console.log(`\n## /api/stats latency (${REQUESTS} requests after warm-up, in process)\n`);
  const rows: (string | number)[][] = [];
  const p50s = new Map<number, number>();
  for (const size of sizes) {
    await using store = await freshStore();
    const seedStart = performance.now();
    const links = await seedLinks(store, size);
    await seedClicks(store, links);
    const seeded = (performance.now() - seedStart) / 1000;
    const config = loadConfig({ BASE_URL: "http://bench.invalid", KV_PATH: store.path });
    const app = createApp(await createDeps(config, store, { log: silentLogger() }));
    const ask = async (i: number) => {
      const res = await app.request("/api/stats", {}, {
        remoteAddr: { hostname: `10.0.${i >> 8}.${i & 255}` },
      });
      if (res.status !== 200) throw new Error(`/api/stats answered ${res.status}`);
      return await res.json();
    };
    for (let i = 0; i < 20; i++) await ask(i);
    const samples: number[] = [];
    let body: { links: number; clicks: number } = { links: 0, clicks: 0 };
    for (let i = 0; i < REQUESTS; i++) {
      const start = performance.now();
      body = await ask(1000 + i);
      samples.push(performance.now() - start);
    }
    const { p50, p90, p99 } = percentiles(samples);
    p50s.set(size, p50);
    rows.push([
      size,
      body.links,
      body.clicks,
      fixed(p50),
      fixed(p90),
      fixed(p99),
      fixed(seeded, 1),
    ]);
  }
  printTable(["live links", "links", "clicks", "p50 ms", "p90 ms", "p99 ms", "seed s"], rows);
  const [small, large] = sizes.map((size) => p50s.get(size)!);
  console.log(
    `\nratio p50 ${sizes[1]} / ${sizes[0]}: ${fixed(large! / small!)} (goal <= 1.5); ` +
      `p50 at ${sizes[1]}: ${fixed(large!)} ms (goal <= 20 ms)`,
  );
  return p50s;
}

if (import.meta.main) await benchStats();
