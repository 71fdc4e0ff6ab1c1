/**
 * Redirects per second and latency at 50 connections over many slugs, click counting on,
 * against a bare `Deno.serve` 302 (the runtime's ceiling), with 1,000, 100,000 and 1,000,000
 * stored links. The service and wrk are pinned to separate cores; each figure is the median of
 * three rounds, all in one run.
 * @module
 */
import { freePort, startProcess } from "../tests/_helpers/server.ts";
import { fixed, freshStore, printTable, seedLinksFast } from "./_lib.ts";
import {
  canPin,
  ensureWrk,
  median,
  pinned,
  runWrk,
  startBenchService,
  type WrkResult,
  wrkScript,
} from "./_wrk.ts";

/** Options of {@linkcode benchRedirect}. */
export interface RedirectBenchOptions {
  /** Stored links per scenario; default 1k, 100k, 1M. */
  sizes?: number[];
  /** Rounds per figure; default 3. */
  rounds?: number;
  /** Seconds per round; default 10. */
  seconds?: number;
  /** Distinct slugs the load cycles through at every size; default 1,000. */
  slugsInLoad?: number;
  /** Distinct slugs of an extra round on the largest store, where the flush works hardest. */
  heavySlugs?: number;
}

const CONNECTIONS = 50;

/** Runs the comparison and prints it. */
export async function benchRedirect(options: RedirectBenchOptions = {}): Promise<void> {
  const sizes = options.sizes ?? [1_000, 100_000, 1_000_000];
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 10;
  await ensureWrk();
  const pin = await canPin();
  console.log(
    `\n## Redirects: ${CONNECTIONS} connections, median of ${rounds} x ${seconds} s` +
      (pin ? ", service on core 0, wrk on core 1" : ", not pinned (taskset unavailable)") + "\n",
  );
  const load = { seconds, connections: CONNECTIONS, pin, core: 1 };
  const measure = async (origin: string, script: string): Promise<WrkResult> => {
    await runWrk(origin, { ...load, script, seconds: 2 }); // warm-up
    const results: WrkResult[] = [];
    for (let i = 0; i < rounds; i++) results.push(await runWrk(origin, { ...load, script }));
    return {
      requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      errors: results.reduce((sum, r) => sum + r.errors, 0),
    };
  };
  const rows: (string | number)[][] = [];
  const ceilingPort = freePort();
  const inLoad = options.slugsInLoad ?? 1_000;
  const someSlugs = Array.from({ length: inLoad }, (_, i) => `/c${i}`);
  let ceiling: WrkResult;
  {
    await using bare = await startProcess(
      pinned(
        0,
        [Deno.execPath(), "run", "--allow-net", "bench/ceiling.ts", String(ceilingPort)],
        pin,
      ),
      { port: ceilingPort },
    );
    ceiling = await measure(bare.origin, await wrkScript(someSlugs));
  }
  rows.push([
    "bare Deno.serve 302",
    "-",
    Math.round(ceiling.requestsPerSecond),
    "1.00",
    fixed(ceiling.p50, 3),
    fixed(ceiling.p99, 3),
    ceiling.errors,
  ]);
  const bySize = new Map<number, WrkResult>();
  const scenarios = sizes.map((size) => ({ size, slugs: Math.min(size, inLoad) }));
  const largest = sizes[sizes.length - 1]!;
  if (options.heavySlugs ?? 20_000) {
    scenarios.push({ size: largest, slugs: Math.min(largest, options.heavySlugs ?? 20_000) });
  }
  for (const { size, slugs: distinct } of scenarios) {
    await using store = await freshStore();
    const slugs = await seedLinksFast(store, size);
    store.kv.close();
    // Slugs spread evenly over the whole store, the same number at every size.
    const step = Math.max(1, Math.floor(slugs.length / distinct));
    const paths = slugs.filter((_, i) => i % step === 0).slice(0, distinct).map((slug) =>
      `/${slug}`
    );
    await using service = await startBenchService(store.path, { pin });
    const result = await measure(service.origin, await wrkScript(paths));
    if (distinct === Math.min(size, inLoad)) bySize.set(size, result);
    rows.push([
      `lapse, ${size.toLocaleString("en")} links`,
      paths.length,
      Math.round(result.requestsPerSecond),
      fixed(result.requestsPerSecond / ceiling.requestsPerSecond),
      fixed(result.p50, 3),
      fixed(result.p99, 3),
      result.errors,
    ]);
  }
  printTable(["server", "slugs in load", "req/s", "x ceiling", "p50 ms", "p99 ms", "errors"], rows);
  const first = bySize.get(sizes[0]!)!;
  const last = bySize.get(sizes[sizes.length - 1]!)!;
  console.log(
    `\n${sizes[0]} vs ${sizes[sizes.length - 1]} links: ${
      fixed(first.requestsPerSecond / last.requestsPerSecond)
    }x ` +
      `(goal <= 1.2); best ratio to the ceiling ${
        fixed(first.requestsPerSecond / ceiling.requestsPerSecond)
      } (goal >= 0.75); ` +
      `p99 ${fixed(first.p99, 2)} ms (goal <= 5 ms)`,
  );
}

if (import.meta.main) await benchRedirect();
