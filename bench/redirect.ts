/**
 * Redirects under traffic as browsers make it (`_traffic.ts`: forty browser User-Agents, ten
 * referrers, 5,000 client addresses through `X-Forwarded-For` with `TRUST_PROXY=1`), against the
 * ceiling (`bench/ceiling.ts`: a bare `Deno.serve` that reads the request's URL and answers a
 * 302 built from its path). Four loads: 1,000 links evenly, 10,000 evenly, 10,000 by
 * popularity (Zipf, s=1), and 20,000 links of a 1,000,000-link store cycled, some 20,000
 * distinct links a second. The servers run on core 0, wrk on core 1; rounds of the service and
 * the ceiling alternate in one run, and each figure is the median of the rounds, its ratio the
 * median of the round-by-round ratios. The service runs with the product's defaults
 * (`STATS_LAG_SECONDS` 60). After each load the service is stopped (which writes every visit)
 * and the clicks stored are checked against the redirects answered.
 *
 * `deno task bench redirect [--service=DIR] [--rounds=N] [--seconds=S] [--loads=a,b]`: `DIR`
 * runs another checkout of the service (to measure a change before and after).
 * @module
 */
import { parseArgs } from "node:util";
import { tallyKey } from "../lib/kv/keys.ts";
import { readCount } from "../lib/tallies/count.ts";
import { freePort, type ServiceProcess, startProcess } from "../tests/_helpers/server.ts";
import { fixed, freshStore, printTable, seedLinksFast, spreadPaths } from "./_lib.ts";
import { shuffled, trafficScript, zipfVisits } from "./_traffic.ts";
import {
  canPin,
  ensureWrk,
  median,
  pinned,
  runWrk,
  startBenchService,
  watchClickWait,
  type WrkResult,
} from "./_wrk.ts";

/** Options of {@linkcode benchRedirect}. */
export interface RedirectBenchOptions {
  /** Rounds per figure; default 3. */
  rounds?: number;
  /** Seconds per round; default 10. */
  seconds?: number;
  /** The loads to run, by name; default all. */
  loads?: string[];
  /** Another checkout of the service to run instead of this one. */
  serviceDir?: string;
}

const CONNECTIONS = 50;

/** One load: the store's size, and the paths wrk cycles through. */
interface Load {
  name: string;
  label: string;
  storeSize: number;
  paths(slugs: string[]): string[];
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
    name: "1m",
    label: "1M store, 20,000 links cycled",
    storeSize: 1_000_000,
    paths: (slugs) => shuffled(spreadPaths(slugs, 20_000)),
  },
];

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
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 10;
  const loads = LOADS.filter((load) => !options.loads || options.loads.includes(load.name));
  await ensureWrk();
  const pin = await canPin();
  console.log(
    `\n## Redirects of browser traffic: ${CONNECTIONS} connections, ${rounds} rounds x ` +
      `${seconds} s, alternating with the ceiling` +
      (pin ? ", servers on core 0, wrk on core 1" : ", not pinned (taskset unavailable)") +
      (options.serviceDir ? `, service from ${options.serviceDir}` : "") + "\n",
  );
  const load = { seconds, connections: CONNECTIONS, pin, core: 1, ownHeaders: true };
  await using ceiling = await startCeiling(pin);
  const rows: (string | number)[][] = [];
  for (const spec of loads) {
    const path = await seededStore(spec.storeSize);
    const slugs = Array.from({ length: spec.storeSize }, (_, i) => `b${i.toString(16)}`);
    const script = await trafficScript(spec.paths(slugs));
    const service = await startBenchService(path, {
      pin,
      env: { TRUST_PROXY: "1" },
      cwd: options.serviceDir,
    });
    let answered = 0;
    const served = async (seconds: number): Promise<WrkResult> => {
      const result = await runWrk(service.origin, { ...load, script, seconds });
      answered += result.requests;
      return result;
    };
    await served(2); // warm-up: caches filled, the country database loaded
    await runWrk(ceiling.origin, { ...load, script, seconds: 2 });
    const wait = watchClickWait(service.origin);
    const mine: WrkResult[] = [];
    const bare: WrkResult[] = [];
    for (let i = 0; i < rounds; i++) {
      bare.push(await runWrk(ceiling.origin, { ...load, script }));
      mine.push(await served(seconds));
    }
    const waits = await wait.stop();
    await service.stop();
    const clicks = await storedClicks(path);
    await Deno.remove(path).catch(() => {});
    const measured = summarize(mine, bare);
    const ceilingFigures = summarize(bare, bare);
    rows.push([
      spec.label,
      Math.round(ceilingFigures.requestsPerSecond),
      Math.round(measured.requestsPerSecond),
      fixed(measured.ratio),
      fixed(measured.p50, 2),
      fixed(measured.p99, 2),
      fixed(Math.max(0, ...waits.map((sample) => sample.seconds)), 1),
      `${clicks} / ${answered}`,
      measured.errors,
    ]);
    console.log(`  ${spec.label}: done`);
  }
  printTable(
    [
      "load",
      "ceiling req/s",
      "lapse req/s",
      "x ceiling",
      "p50 ms",
      "p99 ms",
      "click lag s",
      "clicks stored / redirects answered",
      "errors",
    ],
    rows,
  );
  console.log(
    "\n(click lag: the longest the oldest visit whose clicks were not yet stored had waited, " +
      "polled every 0.5 s; a request in flight when wrk stops may be counted and not answered)",
  );
}

/** Median figures of `mine`, and its ratio to `bare` round by round. */
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
    },
  });
  await benchRedirect({
    serviceDir: values.service,
    rounds: values.rounds ? Number(values.rounds) : undefined,
    seconds: values.seconds ? Number(values.seconds) : undefined,
    loads: values.loads?.split(","),
  });
}
