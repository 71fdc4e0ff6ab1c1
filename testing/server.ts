/**
 * Running the real service as a child process, as `deno task start` does.
 * @module
 */
import { beforeDeadline } from "../lib/kv/deadline.ts";

/** A service process and where it listens. */
export interface ServiceProcess extends AsyncDisposable {
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** The child process (`deno task`). */
  child: Deno.ChildProcess;
  /** The server's own process id, which `deno task` runs as its child. */
  pid: number;
  /** What it has written so far (its first 32 Mi characters). */
  output(): string;
  /** Sends `signal` and waits for the exit status. */
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

function signalProcess(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** A port nothing listens on right now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Options of {@linkcode startService}. */
export interface StartServiceOptions {
  /** Environment of the service; PORT, HOSTNAME and BASE_URL are filled in. */
  env?: Record<string, string>;
  /** The task to run; default `start`. */
  task?: string;
  /** A command the task is run under, e.g. `["taskset", "-c", "0"]` to pin it to a core. */
  prefix?: string[];
  /** Most time to wait for it to listen, in ms; default 30 s. */
  timeoutMs?: number;
  /** The checkout it runs from; default this one. */
  cwd?: string;
}

/** Starts `deno task start` on a free port and waits until it answers. */
export async function startService(options: StartServiceOptions = {}): Promise<ServiceProcess> {
  const port = freePort();
  const origin = `http://127.0.0.1:${port}`;
  return await startProcess(
    [...options.prefix ?? [], Deno.execPath(), "task", "--quiet", options.task ?? "start"],
    {
      port,
      env: {
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        BASE_URL: origin,
        // Every figure written within about 2 s, as the tests read them.
        STATS_LAG_SECONDS: "1",
        ...options.env,
      },
      timeoutMs: options.timeoutMs,
      cwd: options.cwd,
    },
  );
}

/** What a process that ran to its end wrote, and how it ended. */
export interface Exited {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the service as `deno task start` runs it after its build (the same command, flags and
 * permissions, from `deno.json`) with `env` (added to this process's) until it exits, as a
 * start-up that fails does; killed after `timeoutMs` (default 60 s), when it started after all.
 */
export async function runUntilExit(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Exited> {
  const root = new URL("../", import.meta.url);
  const tasks = JSON.parse(await Deno.readTextFile(new URL("deno.json", root))).tasks;
  const serve = String(tasks.start).split("&&").at(-1)!.trim().split(/\s+/);
  if (serve[0] !== "deno") throw new Error(`the start task does not end in deno: ${tasks.start}`);
  const child = new Deno.Command(Deno.execPath(), {
    args: serve.slice(1),
    cwd: root,
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  try {
    const output = await child.output();
    const decoder = new TextDecoder();
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The most of a child's output {@linkcode ServiceProcess.output} keeps, in characters. */
const MAX_KEPT_OUTPUT = 32 * 2 ** 20;

/** Options of {@linkcode startProcess}. */
export interface StartProcessOptions {
  /** The port it will listen on, on 127.0.0.1. */
  port: number;
  /** Its environment, added to this process's. */
  env?: Record<string, string>;
  /** Most time to wait for it to listen, in ms; default 30 s. */
  timeoutMs?: number;
  /** The folder it runs from; default the project's. */
  cwd?: string | URL;
}

/**
 * Runs `command` from the project's folder and waits until it says `listening on`. The server's
 * own pid is read from a `pid N` it prints (the service prints it; `deno task` runs the server as
 * its child), else it is the child's.
 */
export async function startProcess(
  command: string[],
  options: StartProcessOptions,
): Promise<ServiceProcess> {
  const child = new Deno.Command(command[0]!, {
    args: command.slice(1),
    cwd: options.cwd ?? new URL("../", import.meta.url),
    env: options.env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  // Settles once it says it listens (looked for until then only: the output grows large).
  const listening = Promise.withResolvers<void>();
  let listened = false;
  // Everything is read, so the child never waits on a full pipe; a server under a benchmark's
  // load writes hundreds of MB of log lines, of which only the start is kept.
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      if (output.length < MAX_KEPT_OUTPUT) output += decoder.decode(chunk, { stream: true });
      if (!listened && output.includes("listening on")) {
        listened = true;
        listening.resolve();
      }
    }
  };
  const pumping = Promise.all([pump(child.stdout), pump(child.stderr)]);
  // Waited for until it listens, exits (its output ends) or the time is up.
  await beforeDeadline(Promise.race([listening.promise, pumping]), options.timeoutMs ?? 30_000);
  if (!listened) {
    signalProcess(child.pid, "SIGKILL");
    await child.status;
    await pumping;
    throw new Error(`${command.join(" ")} did not start:\n${output}`);
  }
  const pid = Number(/pid (\d+)\)/.exec(output)?.[1] ?? child.pid);
  let status: Promise<Deno.CommandStatus> | null = null;
  const stop = async (signal: Deno.Signal = "SIGTERM") => {
    if (!status) {
      // `deno task` passes SIGTERM and SIGINT on to the server; SIGKILL goes to the server
      // itself, since a killed `deno task` could pass nothing on.
      signalProcess(signal === "SIGKILL" ? pid : child.pid, signal);
      status = child.status;
    }
    const result = await status;
    await pumping;
    return result;
  };
  return {
    origin: `http://127.0.0.1:${options.port}`,
    child,
    pid,
    output: () => output,
    stop,
    async [Symbol.asyncDispose]() {
      const timer = setTimeout(() => signalProcess(pid, "SIGKILL"), 5000);
      await stop("SIGTERM");
      clearTimeout(timer);
    },
  };
}

/** A temporary folder, removed with everything in it when disposed. */
export interface TempDir extends AsyncDisposable {
  path: string;
}

/** Makes a temporary folder for a service's store. */
export async function tempDir(prefix = "lapse-"): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix });
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

/** An answer read to its end. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON. */
  json<T = unknown>(): T;
  /** When the request was sent and when its answer was read, in `performance.now()` ms. */
  sentAt: number;
  doneAt: number;
}

/** Options of {@linkcode call}. */
export interface CallOptions {
  method?: string;
  /** A body sent as JSON. */
  json?: unknown;
  /** The client address sent as `X-Forwarded-For`, for a service run with `TRUST_PROXY=1`. */
  client?: string;
  headers?: Record<string, string>;
}

/** Sends one request to a running service and reads the answer to its end; redirects are not followed. */
export async function call(
  origin: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.client) headers["X-Forwarded-For"] = options.client;
  if (options.json !== undefined) headers["Content-Type"] = "application/json";
  const sentAt = performance.now();
  const res = await fetch(`${origin}${path}`, {
    method: options.method ?? (options.json === undefined ? "GET" : "POST"),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    redirect: "manual",
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: <T>() => JSON.parse(text) as T,
    sentAt,
    doneAt: performance.now(),
  };
}

/** The `i`-th of as many distinct client addresses as a test needs (IPv6 documentation range). */
export function clientNumber(i: number): string {
  return `2001:db8:${(i + 1).toString(16)}::1`; // a /64 of its own: rate limits count by /64
}

/** Runs `task(i)` for every `i` below `count`, at most `concurrency` at a time; results in order. */
export async function inParallel<T>(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, concurrency) }, worker));
  return results;
}

/**
 * A folder this process cannot write to: made read-only (mode 0555), or, where that binds no one
 * (root), a read-only tmpfs mounted on it. Throws where neither can be had, rather than let a
 * test pass without it.
 */
export async function unwritableFolder(): Promise<TempDir> {
  const path = await Deno.makeTempDir({ prefix: "lapse-readonly-" });
  await Deno.chmod(path, 0o555);
  let mounted = false;
  if (await canWrite(path)) {
    const mount = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "ro,size=1m", "lapse-readonly", path],
      stdout: "null",
      stderr: "null",
    }).output().catch(() => null);
    mounted = mount?.success ?? false;
  }
  if (await canWrite(path)) {
    throw new Error(`no way to make ${path} unwritable here: not read-only, and mount refused`);
  }
  return {
    path,
    async [Symbol.asyncDispose]() {
      if (mounted) await new Deno.Command("umount", { args: ["-l", path] }).output();
      await Deno.chmod(path, 0o755).catch(() => {});
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}

async function canWrite(folder: string): Promise<boolean> {
  try {
    await Deno.remove(await Deno.makeTempFile({ dir: folder }));
    return true;
  } catch {
    return false;
  }
}
