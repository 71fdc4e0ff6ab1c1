/**
 * The sweep of 10,000 and 100,000 expired links: time and the sweeping process's peak memory,
 * which must not grow with the count (it works in bounded batches).
 * @module
 */
import { openStore } from "../lib/kv/store.ts";
import { fixed, printTable, seedLinksFast } from "./_lib.ts";
import { run } from "./_wrk.ts";
import { pause } from "../lib/pause.ts";

/** Measures and prints. */
export async function benchSweep(counts = [10_000, 100_000]): Promise<void> {
  console.log("\n## Sweep of expired links (in its own process)\n");
  const rows: (string | number)[][] = [];
  for (const count of counts) {
    const dir = await Deno.makeTempDir({ prefix: "lapse-bench-" });
    try {
      const path = `${dir}/links.kv`;
      const store = await openStore(path, { ttlMs: 1 });
      await seedLinksFast(store, count); // each with a deadline a millisecond away
      store.kv.close();
      await pause(10);
      const output = await run([
        Deno.execPath(),
        "run",
        "-A",
        new URL("./sweep_child.ts", import.meta.url).pathname,
        path,
      ]);
      const result = JSON.parse(output.trim().split("\n").pop()!);
      rows.push([
        count,
        result.swept,
        fixed(result.seconds, 1),
        Math.round(result.swept / result.seconds),
        fixed(result.peakRssMiB, 1),
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  printTable(["expired links", "swept", "seconds", "links/s", "peak RSS MiB"], rows);
}

if (import.meta.main) await benchSweep();
