/**
 * How long clicks wait to be written as the distinct links clicked each second grow, on a
 * 100,000-link store (`lapse_clicks_waiting_seconds`, polled every half second).
 * @module
 */
import { fixed, freshStore, printTable, seedLinksFast, spreadPaths } from "./_lib.ts";
import {
  canPin,
  ensureWrk,
  median,
  runWrk,
  startBenchService,
  watchClickWait,
  wrkScript,
} from "./_wrk.ts";

/** Options of {@linkcode benchClickWait}. */
export interface ClickWaitBenchOptions {
  /** Distinct slugs of each load; default 1k, 2k, 3k, 5k. */
  slugs?: number[];
  /** Seconds of each load; default 15. */
  seconds?: number;
}

const LINKS = 100_000;
const CONNECTIONS = 50;
// The first flushes of a fresh service read every link's figures and load the country
// database; waits after this many seconds are the steady ones.
const WARM_UP_S = 4;

/** Runs the loads and prints the waits. */
export async function benchClickWait(options: ClickWaitBenchOptions = {}): Promise<void> {
  const counts = options.slugs ?? [1_000, 2_000, 3_000, 5_000];
  const seconds = options.seconds ?? 15;
  await ensureWrk();
  const pin = await canPin();
  console.log(
    `\n## Click wait: ${CONNECTIONS} connections, ${seconds} s a load, ` +
      `${LINKS.toLocaleString("en")} stored links, a fresh service for each load` +
      (pin ? ", the service on core 0, wrk on core 1" : ", not pinned (taskset unavailable)") +
      "\n",
  );
  await using store = await freshStore();
  const slugs = await seedLinksFast(store, LINKS);
  store.kv.close();
  const rows: (string | number)[][] = [];
  for (const count of counts) {
    await using service = await startBenchService(store.path, { pin });
    const paths = spreadPaths(slugs, count);
    const script = await wrkScript(paths);
    const wait = watchClickWait(service.origin);
    const load = await runWrk(service.origin, {
      script,
      seconds,
      connections: CONNECTIONS,
      pin,
      core: 1,
    });
    const samples = await wait.stop();
    const steady = samples.filter((sample) => sample.at >= WARM_UP_S && sample.at <= seconds);
    const waits = steady.map((sample) => sample.seconds);
    rows.push([
      paths.length.toLocaleString("en"),
      Math.round(load.requestsPerSecond),
      fixed(load.p99, 2),
      waits.length > 0 ? fixed(median(waits), 1) : "",
      waits.length > 0 ? fixed(Math.max(...waits), 1) : "",
      fixed(Math.max(0, ...samples.map((sample) => sample.seconds)), 1),
    ]);
  }
  printTable(
    [
      "distinct links a second",
      "req/s",
      "p99 ms",
      `wait median s (after ${WARM_UP_S} s)`,
      `wait longest s (after ${WARM_UP_S} s)`,
      "wait longest s",
    ],
    rows,
  );
}

if (import.meta.main) await benchClickWait();
