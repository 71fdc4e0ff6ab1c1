/**
 * Redirects under browser-like traffic (`_traffic.ts`) against the ceiling (`ceiling.ts`), six
 * loads, rounds alternating in one run; clicks stored checked against redirects answered, and
 * the figures the slower cadence wrote within the rounds counted. Options and method:
 * docs/benchmarks.md.
 * @module
 */
import { parseArgs } from "node:util";
import { tallyKey } from "../lib/kv/keys.ts";
import { readCount } from "../lib/tallies/count.ts";
import { freePort, type ServiceProcess, startProcess } from "../testing/server.ts";
import { fixed, freshStore, printTable, seedLinksFast, spreadPaths } from "./_lib.ts";
import { type Clients, shuffled, trafficScript, zipfVisits } from "./_traffic.ts";
import {
  canPin,
  type ClickWaitSample,
  cpuSecondsOf,
  ensureWrk,
  median,
  pauseWhenWritten,
  pinned,
  resume,
  runWrk,
  startBenchService,
  watchClickWait,
  type WrkResult,
} from "./_wrk.ts";

/** Options of {@linkcode benchRedirect}. */
export interface RedirectBenchOptions {
  /** Rounds per figure; default 6. */
  rounds?: number;
  /** Seconds per round; default 5. */
  seconds?: number;
  /** The loads to run, by name; default all. */
  loads?: string[];
  /** Another checkout of the service to run instead of this one. */
  serviceDir?: string;
  /**
   * A checkout to compare with: it runs as "before" and the service as "after", their rounds
   * alternating with the ceiling's in one run.
   */
  compareDir?: string;
  /**
   * Also run the services and the ceiling in pairs at the same moment, both on core 0: the
   * ratio of their throughputs holds still where rounds one after another do not.
   */
  sideBySide?: boolean;
}

const CONNECTIONS = 50;

/** One load: the store's size, the paths wrk cycles through, and its clients. */
interface Load {
  name: string;
  label: string;
  storeSize: number;
  paths(slugs: string[]): string[];
  /** Where its client addresses come from; default a pool of 5,000. */
  clients?: Clients;
}

const LOADS: Load[] = [
  {
    name: "1k",
    label: "1,000 links, evenly",
    storeSize: 1_000,
    paths: (slugs) => shuffled(slugs.map((slug) => `/${slug}`)),
  },
  {
    name: "10k",
    label: "10,000 links, evenly",
    storeSize: 10_000,
    paths: (slugs) => shuffled(slugs.map((slug) => `/${slug}`)),
  },
  {
    name: "zipf",
    label: "10,000 links, Zipf s=1",
    storeSize: 10_000,
    paths: (slugs) => zipfVisits(slugs.map((slug) => `/${slug}`), 200_000),
  },
  {
    name: "zipf-new",
    label: "10,000 links, Zipf s=1, a new client each request",
    storeSize: 10_000,
    paths: (slugs) => zipfVisits(slugs.map((slug) => `/${slug}`), 200_000),
    clients: "new",
  },
  {
    name: "zipf-one",
    label: "10,000 links, Zipf s=1, one client",
    storeSize: 10_000,
    paths: (slugs) => zipfVisits(slugs.map((slug) => `/${slug}`), 200_000),
    clients: "one",
  },
  {
    name: "1m",
    label: "1M store, 20,000 links cycled",
    storeSize: 1_000_000,
    paths: (slugs) => shuffled(spreadPaths(slugs, 20_000)),
  },
];

/** A service under a load, and what it answered. */
interface Running {
  name: string;
  path: string;
  service: ServiceProcess;
  answered: number;
  rounds: WrkResult[];
  /** CPU µs a request answered, round by round (see `cpuPerRequest`). */
  cpu: number[];
  /** Clicks the slower cadence added to `/api/stats` while its rounds ran. */
  figured: number;
}

/** Figures of one server over rounds, and its ratio to the ceiling round by round. */
interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  ratio: number;
}

/** Runs the loads and prints their figures. */
export async function benchRedirect(options: RedirectBenchOptions = {}): Promise<void> {
  const rounds = options.rounds ?? 6;
  const seconds = options.seconds ?? 5;
  const loads = LOADS.filter((load) => !options.loads || options.loads.includes(load.name));
  await ensureWrk();
  const pin = await canPin();
  console.log(
    `\n## Redirects of browser traffic: ${CONNECTIONS} connections, ${rounds} rounds x ` +
      `${seconds} s, alternating with the ceiling` +
      (pin ? ", servers on core 0, wrk on core 1" : ", not pinned (taskset unavailable)") +
      (options.serviceDir ? `, service from ${options.serviceDir}` : "") +
      (options.compareDir ? `, compared with ${options.compareDir}` : "") + "\n",
  );
  const load = { seconds, connections: CONNECTIONS, pin, core: 1, ownHeaders: true };
  await using ceiling = await startCeiling(pin);
  const rows: (string | number)[][] = [];
  const sideRows: (string | number)[][] = [];
  // The services measured: this checkout, or another; or both, their rounds alternating.
  const services = options.compareDir
    ? [{ name: "before", dir: options.compareDir }, { name: "after", dir: options.serviceDir }]
    : [{ name: "lapse", dir: options.serviceDir }];
  for (const spec of loads) {
    const slugs = Array.from({ length: spec.storeSize }, (_, i) => `b${i.toString(16)}`);
    const script = await trafficScript(spec.paths(slugs), spec.clients);
    const running: Running[] = [];
    for (const { name, dir } of services) {
      const path = await seededStore(spec.storeSize);
      const service = await startBenchService(path, { pin, env: { TRUST_PROXY: "1" }, cwd: dir });
      running.push({ name, path, service, answered: 0, rounds: [], cpu: [], figured: 0 });
    }
    const served = async (one: Running, seconds: number) => {
      const result = await runWrk(one.service.origin, { ...load, script, seconds });
      one.answered += result.requests;
      return result;
    };
    // Each server measured in turn runs alone on its core: the other services are paused.
    const servedAlone = async (one: Running, seconds: number) => {
      resume(one.service);
      const result = await served(one, seconds);
      await pauseWhenWritten(one.service);
      return result;
    };
    // A measured round, and what the slower cadence wrote during it: the service-wide clicks
    // of /api/stats move only when it writes (some 1.5 ms a read, outside wrk's window).
    const measured = async (one: Running) => {
      resume(one.service);
      const cpuBefore = await cpuSecondsOf(one.service.pid);
      const before = await statsClicks(one.service.origin);
      const result = await served(one, seconds);
      const after = await statsClicks(one.service.origin);
      await pauseWhenWritten(one.service);
      one.figured += after - before;
      one.cpu.push(await cpuPerRequest(one.service.pid, cpuBefore, result));
      return result;
    };
    let waits: { stop(): Promise<ClickWaitSample[]> }[] = [];
    const bare: WrkResult[] = [];
    const bareCpu: number[] = [];
    try {
      // Warm-up: caches filled, the country database loaded.
      for (const one of running) await servedAlone(one, 2);
      await runWrk(ceiling.origin, { ...load, script, seconds: 2 });
      waits = running.map((one) => watchClickWait(one.service.origin));
      for (let i = 0; i < rounds; i++) {
        const cpuBefore = await cpuSecondsOf(ceiling.pid);
        const round = await runWrk(ceiling.origin, { ...load, script });
        bare.push(round);
        bareCpu.push(await cpuPerRequest(ceiling.pid, cpuBefore, round));
        for (const one of running) one.rounds.push(await measured(one));
      }
      if (options.sideBySide) {
        // Each pair at the same moment, both on core 0: the ratio of their throughputs is the
        // inverse of the ratio of their costs per request, whatever the machine does meanwhile.
        const pairs: [Running, Running | null][] = running.length === 2
          ? [[running[1]!, null], [running[0]!, null], [running[1]!, running[0]!]]
          : [[running[0]!, null]];
        for (const [a, b] of pairs) {
          for (const one of running) {
            if (one === a || one === b) resume(one.service);
            else await pauseWhenWritten(one.service);
          }
          const ratios: number[] = [];
          for (let i = 0; i < rounds; i++) {
            const [mine, other] = await Promise.all([
              served(a, seconds),
              b === null ? runWrk(ceiling.origin, { ...load, script }) : served(b, seconds),
            ]);
            ratios.push(mine.requestsPerSecond / other.requestsPerSecond);
          }
          sideRows.push([
            spec.label,
            `${a.name} / ${b?.name ?? "ceiling"}`,
            ratios.map((r) => fixed(r)).join(", "),
            fixed(median(ratios)),
          ]);
        }
      }
    } finally {
      // A paused process takes no signal to stop until it is resumed.
      for (const one of running) resume(one.service);
    }
    for (const [i, one] of running.entries()) {
      const samples = await waits[i]!.stop();
      await one.service.stop();
      const clicks = await storedClicks(one.path);
      await Deno.remove(one.path).catch(() => {});
      const figures = summarize(one.rounds, bare);
      rows.push([
        spec.label,
        one.name,
        Math.round(median(bare.map((r) => r.requestsPerSecond))),
        Math.round(figures.requestsPerSecond),
        fixed(figures.ratio),
        fixed(median(one.cpu), 1),
        fixed(figures.p50, 2),
        fixed(figures.p99, 2),
        fixed(Math.max(0, ...samples.map((sample) => sample.seconds)), 1),
        `${clicks} / ${one.answered}`,
        one.figured,
        figures.errors,
      ]);
      if (one.figured === 0) {
        console.error(
          `  ${spec.label}, ${one.name}: no figures written within the rounds; ` +
            "a longer run (--rounds, --seconds) lets the lag pass",
        );
      }
    }
    const ceilingFigures = summarize(bare, bare);
    rows.push([
      spec.label,
      "ceiling",
      Math.round(ceilingFigures.requestsPerSecond),
      Math.round(ceilingFigures.requestsPerSecond),
      "1.00",
      fixed(median(bareCpu), 1),
      fixed(ceilingFigures.p50, 2),
      fixed(ceilingFigures.p99, 2),
      "",
      "",
      "",
      ceilingFigures.errors,
    ]);
    console.log(`  ${spec.label}: done`);
  }
  printTable(
    [
      "load",
      "service",
      "ceiling req/s",
      "lapse req/s",
      "x ceiling",
      "CPU µs a request",
      "p50 ms",
      "p99 ms",
      "click lag s",
      "clicks stored / redirects answered",
      "figures in rounds",
      "errors",
    ],
    rows,
  );
  console.log(
    "\n(click lag: the longest the oldest visit whose clicks were not yet stored had waited, " +
      "polled every 0.5 s; a request in flight when wrk stops may be counted and not answered; " +
      "figures in rounds: the clicks /api/stats gained while the measured rounds ran, written " +
      "by the STATS_LAG_SECONDS cadence; CPU µs a request: the server's CPU, every thread, over " +
      "a measured round and the writing of its clicks after it, over the requests answered)",
  );
  if (sideRows.length > 0) {
    console.log("\nSide by side on core 0, each under its own wrk at the same moment:\n");
    printTable(["load", "pair", "throughput ratio by round", "median"], sideRows);
  }
}

/** Median figures of `mine`, and its ratio to `bare` round by round. */
/**
 * CPU µs a request answered: what server `pid` has spent since it had used `cpuBefore` seconds
 * (a round, and its clicks written after it), over the requests wrk saw answered in `result`.
 */
async function cpuPerRequest(pid: number, cpuBefore: number, result: WrkResult): Promise<number> {
  return (await cpuSecondsOf(pid) - cpuBefore) * 1e6 / result.requests;
}

function summarize(mine: WrkResult[], bare: WrkResult[]): Measured {
  return {
    requestsPerSecond: median(mine.map((r) => r.requestsPerSecond)),
    p50: median(mine.map((r) => r.p50)),
    p99: median(mine.map((r) => r.p99)),
    errors: mine.reduce((sum, r) => sum + r.errors, 0),
    ratio: median(mine.map((r, k) => r.requestsPerSecond / bare[k]!.requestsPerSecond)),
  };
}

/**
 * A fresh copy of a store of `size` links (`b0`, `b1`... in hex), seeded once and kept in the
 * temporary folder for the next runs: seeding a million links takes minutes.
 */
async function seededStore(size: number): Promise<string> {
  const template = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lapse-bench-${size}.kv`;
  try {
    await Deno.stat(template);
  } catch {
    const started = performance.now();
    await using store = await freshStore();
    await seedLinksFast(store, size);
    store.kv.close();
    await Deno.copyFile(store.path, template);
    console.log(
      `  seeded ${size.toLocaleString("en")} links in ${
        fixed((performance.now() - started) / 1000, 0)
      } s`,
    );
  }
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  await Deno.copyFile(template, path);
  return path;
}

/** The service-wide clicks `/api/stats` gives (written by the slower cadence). */
async function statsClicks(origin: string): Promise<number> {
  const response = await fetch(`${origin}/api/stats`);
  if (!response.ok) throw new Error(`/api/stats answered ${response.status}`);
  return (await response.json()).clicks;
}

/** The clicks by people stored in the store at `path`. */
async function storedClicks(path: string): Promise<number> {
  const kv = await Deno.openKv(path);
  try {
    return Number(readCount((await kv.get(tallyKey("clicks", ""))).value));
  } finally {
    kv.close();
  }
}

/** Starts the ceiling on a free port, pinned to core 0. */
async function startCeiling(pin: boolean): Promise<ServiceProcess> {
  const port = freePort();
  return await startProcess(
    pinned(0, [Deno.execPath(), "run", "--allow-net", "bench/ceiling.ts", String(port)], pin),
    { port },
  );
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      service: { type: "string" },
      rounds: { type: "string" },
      seconds: { type: "string" },
      loads: { type: "string" },
      compare: { type: "string" },
      "side-by-side": { type: "boolean" },
    },
  });
  await benchRedirect({
    serviceDir: values.service,
    compareDir: values.compare,
    sideBySide: values["side-by-side"],
    rounds: values.rounds ? Number(values.rounds) : undefined,
    seconds: values.seconds ? Number(values.seconds) : undefined,
    loads: values.loads?.split(","),
  });
}
