import { type ServiceProcess, startService } from "../testing/server.ts";
import { pause } from "../lib/pause.ts";

/**
 * Driving `wrk` (Debian's package, installed when missing) and the service as processes pinned
 * to their own cores.
 * @module
 */

/** One wrk run's figures. */
export interface WrkResult {
  requestsPerSecond: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  /** Responses that were not 2xx or 3xx. */
  errors: number;
  /** Responses received. */
  requests: number;
}

/** A desktop browser's User-Agent, so visits count as clicks by people. */
export const BROWSER_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

/** Installs wrk from Debian's packages when it is not on the PATH. */
export async function ensureWrk(): Promise<void> {
  if (await succeeds("sh", ["-c", "command -v wrk"])) return;
  console.log("installing wrk from Debian's packages...");
  const sudo = Deno.uid() === 0 ? [] : ["sudo"];
  await run([...sudo, "apt-get", "update", "-qq"]);
  await run([...sudo, "apt-get", "install", "-y", "-qq", "wrk"]);
}

/** Whether `taskset` is available to pin processes to cores. */
export async function canPin(): Promise<boolean> {
  return navigator.hardwareConcurrency >= 2 && await succeeds("taskset", ["-c", "0", "true"]);
}

/** A command pinned to `core` when pinning is possible. */
export function pinned(core: number, command: string[], pin: boolean): string[] {
  return pin ? ["taskset", "-c", String(core), ...command] : command;
}

/** Writes a wrk script that cycles through `paths`, and returns its file name. */
export async function wrkScript(paths: string[]): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".lua" });
  const list = paths.map((path) => `"${path.replace(/[^A-Za-z0-9/_-]/g, "")}"`).join(",\n");
  await Deno.writeTextFile(
    file,
    `local paths = {\n${list}\n}
local reqs = {}
init = function(args)
  for i, path in ipairs(paths) do reqs[i] = wrk.format("GET", path) end
end
local i = 0
request = function()
  i = i + 1
  if i > #reqs then i = 1 end
  return reqs[i]
end
`,
  );
  return file;
}

/** Runs wrk against `origin` for `seconds` with `connections`, on `core`. */
export async function runWrk(
  origin: string,
  options: {
    script: string;
    seconds: number;
    connections: number;
    pin: boolean;
    core: number;
    /** Whether the script sets each request's headers itself; default false. */
    ownHeaders?: boolean;
  },
): Promise<WrkResult> {
  const args = [
    "wrk",
    "-t1",
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    ...(options.ownHeaders ? [] : ["-H", `User-Agent: ${BROWSER_UA}`]),
    "-s",
    options.script,
    `${origin}/`,
  ];
  const output = await run(pinned(options.core, args, options.pin));
  return parseWrk(output);
}

/**
 * Runs two wrk loads at once, one on each of `origins`: with both servers pinned to one core,
 * each gets half of it, and the ratio of their figures is the ratio of their costs per
 * request, measured at the same moment. On a machine whose speed wanders from second to
 * second (a virtual machine under a busy host) this ratio holds still where rounds measured one
 * after the other do not.
 */
export async function runWrkSideBySide(
  origins: [string, string],
  options: { script: string; seconds: number; connections: number; pin: boolean; core: number },
): Promise<[WrkResult, WrkResult]> {
  const [a, b] = await Promise.all(origins.map((origin) => runWrk(origin, options)));
  return [a!, b!];
}

/** Reads wrk's report. */
export function parseWrk(output: string): WrkResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
  const latency = (label: string) => {
    const match = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(output);
    if (!match) return NaN;
    const value = Number(match[1]);
    return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
  };
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) +
    Number(/Socket errors: connect (\d+)/.exec(output)?.[1] ?? 0);
  if (!Number.isFinite(rps)) throw new Error(`cannot read wrk's report:\n${output}`);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN);
  return { requestsPerSecond: rps, p50: latency("50"), p99: latency("99"), errors, requests };
}

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs a command and returns its standard output; throws when it fails. */
export async function run(command: string[], env?: Record<string, string>): Promise<string> {
  const output = await new Deno.Command(command[0]!, {
    args: command.slice(1),
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  if (!output.success) {
    throw new Error(
      `${command.join(" ")} failed:\n${text}${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return text;
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(command, { args, stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** Linux's `/proc/<pid>/<file>` of process `pid`, or `""` where it cannot be read. */
async function procFile(pid: number, file: string): Promise<string> {
  try {
    return await Deno.readTextFile(`/proc/${pid}/${file}`);
  } catch {
    return "";
  }
}

/** The peak resident memory of process `pid` so far, in MiB (Linux `VmHWM`), or NaN. */
export async function peakRssMiB(pid: number): Promise<number> {
  return Number(/VmHWM:\s+(\d+) kB/.exec(await procFile(pid, "status"))?.[1]) / 1024;
}

/** The resident memory of process `pid` now, in MiB (Linux `VmRSS`), or NaN. */
export async function rssMiB(pid: number): Promise<number> {
  return Number(/VmRSS:\s+(\d+) kB/.exec(await procFile(pid, "status"))?.[1]) / 1024;
}

/**
 * CPU seconds process `pid` has used so far, every thread of it, user and system, or NaN: from
 * `/proc/<pid>/stat`, whose times are in ticks of 1/100 s on Linux.
 */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await procFile(pid, "stat");
  // The fields after the command, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return stat === "" ? NaN : (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Starts `deno task start` on the store at `kvPath`, pinned to core 0 when `pin`, with the
 * product's defaults (`STATS_LAG_SECONDS` 60), from `cwd` when given (another checkout).
 */
export async function startBenchService(
  kvPath: string,
  options: { pin: boolean; env?: Record<string, string>; cwd?: string },
): Promise<ServiceProcess> {
  return await startService({
    prefix: options.pin ? ["taskset", "-c", "0"] : [],
    env: { KV_PATH: kvPath, STATS_LAG_SECONDS: "60", ...options.env },
    timeoutMs: 60_000,
    cwd: options.cwd,
  });
}

/** One reading of the service's click wait. */
export interface ClickWaitSample {
  /** Seconds since polling began. */
  at: number;
  /** `lapse_clicks_waiting_seconds`. */
  seconds: number;
}

/**
 * Polls the service's `/metrics` every half second until stopped, for its click wait: how long
 * the oldest visit not yet written had waited.
 */
export function watchClickWait(origin: string): { stop(): Promise<ClickWaitSample[]> } {
  const samples: ClickWaitSample[] = [];
  const start = performance.now();
  let running = true;
  const polling = (async () => {
    while (running) {
      const seconds = await clickWait(origin);
      if (seconds !== null) samples.push({ at: (performance.now() - start) / 1000, seconds });
      await pause(500);
    }
  })();
  return {
    async stop() {
      running = false;
      await polling;
      return samples;
    },
  };
}

/** The service's `lapse_clicks_waiting_seconds`, or `null` when a scrape fails or stalls. */
async function clickWait(origin: string): Promise<number | null> {
  try {
    const scrape = await fetch(`${origin}/metrics`, { signal: AbortSignal.timeout(5_000) });
    const sample = /^lapse_clicks_waiting_seconds (\S+)$/m.exec(await scrape.text());
    return sample ? Number(sample[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Pauses `service` (SIGSTOP) once every visit it answered has its clicks stored, or after 10 s:
 * while another server is measured on its core, none of its own work runs there. Its later work
 * (the figures of those visits) runs when it is resumed, in its own rounds.
 */
export async function pauseWhenWritten(service: ServiceProcess): Promise<void> {
  // A paused service answers no scrape: it is left as it is.
  if (paused.has(service)) return;
  const deadline = performance.now() + 10_000;
  while (await clickWait(service.origin) !== 0) {
    if (performance.now() > deadline) {
      // Its pause then counts in its click lag: the figure is flagged, not hidden.
      console.error(`  ${service.origin}: clicks still waiting after 10 s; paused all the same`);
      break;
    }
    await pause(100);
  }
  Deno.kill(service.pid, "SIGSTOP");
  paused.add(service);
}

// The services paused by `pauseWhenWritten` and not resumed since.
const paused = new WeakSet<ServiceProcess>();

/** Resumes a service {@linkcode pauseWhenWritten} paused; nothing when it runs or is gone. */
export function resume(service: ServiceProcess): void {
  paused.delete(service);
  try {
    Deno.kill(service.pid, "SIGCONT");
  } catch {
    // a process already gone has nothing to resume
  }
}
