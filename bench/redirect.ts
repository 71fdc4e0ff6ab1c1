/**
 * Redirects per second and latency at 50 connections over many slugs, click counting on,
 * against a bare `Deno.serve` 302 (the runtime's ceiling), with 1,000, 100,000 and 1,000,000
 * stored links. The servers and wrk are pinned to separate cores; each figure is the median of
 * three rounds, each round beside a round of the ceiling, all in one run. On the first store, a
 * floor server (`bench/floor.ts`: only the reads every redirect needs) is measured the same
 * way, and both it and the service are also run side by side with the ceiling on one core,
 * which gives their cost ratios at the same moment.
 * @module
 */
import { freePort, type ServiceProcess, startProcess } from "../testing/server.ts";
import { fixed, freshStore, printTable, seedLinksFast, spreadPaths } from "./_lib.ts";
import {
  canPin,
  ensureWrk,
  median,
  pinned,
  runWrk,
  runWrkSideBySide,
  startBenchService,
  watchClickWait,
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

/** Figures of one server over rounds, and its ratio to the ceiling round by round. */
interface Measured extends WrkResult {
  /** Median of this server's req/s over the ceiling's in the same round. */
  ratio: number;
  /** The service's longest click wait seen (`lapse_clicks_waiting_seconds`), when polled. */
  clickWait?: number;
}

/** Runs the comparison and prints it. */
export async function benchRedirect(options: RedirectBenchOptions = {}): Promise<void> {
  const sizes = options.sizes ?? [1_000, 100_000, 1_000_000];
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 10;
  await ensureWrk();
  const pin = await canPin();
  console.log(
    `\n## Redirects: ${CONNECTIONS} connections, median of ${rounds} x ${seconds} s, each round ` +
      `beside a round of the ceiling` +
      (pin ? ", servers on core 0, wrk on core 1" : ", not pinned (taskset unavailable)") + "\n",
  );
  const load = { seconds, connections: CONNECTIONS, pin, core: 1 };
  await using ceiling = await startBare("bench/ceiling.ts", pin);
  await using floor = await startBare("bench/floor.ts", pin);
  // Rounds of the servers in turn, the ceiling in each, so a machine that drifts moves both.
  const measure = async (origins: string[], script: string): Promise<Measured[]> => {
    for (const origin of origins) await runWrk(origin, { ...load, script, seconds: 2 }); // warm-up
    const results: WrkResult[][] = origins.map(() => []);
    for (let i = 0; i < rounds; i++) {
      for (const [j, origin] of origins.entries()) {
        results[j]!.push(await runWrk(origin, { ...load, script }));
      }
    }
    return results.map((mine) => ({
      requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
      p50: median(mine.map((r) => r.p50)),
      p99: median(mine.map((r) => r.p99)),
      errors: mine.reduce((sum, r) => sum + r.errors, 0),
      ratio: median(mine.map((r, k) => r.requestsPerSecond / results[0]![k]!.requestsPerSecond)),
    }));
  };
  const row = (name: string, slugs: number | string, m: Measured) => [
    name,
    slugs,
    Math.round(m.requestsPerSecond),
    fixed(m.ratio),
    fixed(m.p50, 3),
    fixed(m.p99, 3),
    m.clickWait === undefined ? "" : fixed(m.clickWait, 1),
    m.errors,
  ];
  const rows: (string | number)[][] = [];
  const shared: (string | number)[][] = [];
  const bySize = new Map<number, Measured>();
  const inLoad = options.slugsInLoad ?? 1_000;
  const scenarios = sizes.map((size) => ({ size, slugs: Math.min(size, inLoad) }));
  const largest = sizes[sizes.length - 1]!;
  if (options.heavySlugs ?? 20_000) {
    scenarios.push({ size: largest, slugs: Math.min(largest, options.heavySlugs ?? 20_000) });
  }
  for (const [n, { size, slugs: distinct }] of scenarios.entries()) {
    await using store = await freshStore();
    const slugs = await seedLinksFast(store, size);
    store.kv.close();
    // Slugs spread evenly over the whole store, the same number at every size.
    const paths = spreadPaths(slugs, distinct);
    const script = await wrkScript(paths);
    await using service = await startBenchService(store.path, { pin });
    const withFloor = n === 0;
    const origins = withFloor
      ? [ceiling.origin, floor.origin, service.origin]
      : [ceiling.origin, service.origin];
    // A fresh service's first flushes read every link's figures and load the country
    // database; the click wait is watched once they are done.
    await runWrk(service.origin, { ...load, script, seconds: 2 });
    const wait = watchClickWait(service.origin);
    const measured = await measure(origins, script);
    const waits = await wait.stop();
    const clickWait = Math.max(0, ...waits.map((sample) => sample.seconds));
    const mine = { ...measured[measured.length - 1]!, clickWait };
    if (withFloor) {
      rows.push(row("bare Deno.serve 302 (ceiling)", paths.length, measured[0]!));
      rows.push(row("floor: the redirect's reads, no work", paths.length, measured[1]!));
      shared.push(await sideBySide("floor", floor.origin, ceiling.origin, script, load, rounds));
      shared.push(await sideBySide("lapse", service.origin, ceiling.origin, script, load, rounds));
    }
    if (distinct === Math.min(size, inLoad)) bySize.set(size, mine);
    rows.push(row(`lapse, ${size.toLocaleString("en")} links`, paths.length, mine));
  }
  printTable(
    ["server", "slugs in load", "req/s", "x ceiling", "p50 ms", "p99 ms", "click wait s", "errors"],
    rows,
  );
  console.log(
    "\n(click wait: the longest the oldest unwritten visit had waited, polled every 0.5 s " +
      "after a 2 s warm-up; the contract allows click figures to lag by 2 s)",
  );
  console.log(
    "\nSide by side on one core, each server under its own wrk at the same moment " +
      `(${sizes[0]!.toLocaleString("en")} links): the ratio of their costs per request\n`,
  );
  printTable(["server", "ratios to the ceiling by round", "median"], shared);
  const first = bySize.get(sizes[0]!)!;
  const last = bySize.get(sizes[sizes.length - 1]!)!;
  // Sizes are measured minutes apart; each one's ratio to the ceiling in its own rounds is the
  // comparison a drifting machine leaves standing.
  console.log(
    `\n${sizes[0]} vs ${sizes[sizes.length - 1]} links: ${
      fixed(first.requestsPerSecond / last.requestsPerSecond)
    }x in req/s, ${fixed(first.ratio / last.ratio)}x against the ceiling in their own rounds ` +
      `(goal <= 1.2); ratio to the ceiling ${fixed(first.ratio)} (goal >= 0.75); ` +
      `p99 ${fixed(first.p99, 2)} ms (goal <= 5 ms)`,
  );
}

/** Starts a bare server script of the bench on a free port, pinned to core 0. */
async function startBare(script: string, pin: boolean): Promise<ServiceProcess> {
  const port = freePort();
  return await startProcess(
    pinned(0, [Deno.execPath(), "run", "--allow-net", script, String(port)], pin),
    { port },
  );
}

/** Runs `server` and the ceiling side by side, round by round; a row of their ratios. */
async function sideBySide(
  name: string,
  server: string,
  ceiling: string,
  script: string,
  load: { seconds: number; connections: number; pin: boolean; core: number },
  rounds: number,
): Promise<(string | number)[]> {
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const [mine, bare] = await runWrkSideBySide([server, ceiling], { ...load, script });
    ratios.push(mine.requestsPerSecond / bare.requestsPerSecond);
  }
  return [name, ratios.map((r) => fixed(r)).join(", "), fixed(median(ratios))];
}

if (import.meta.main) await benchRedirect();
