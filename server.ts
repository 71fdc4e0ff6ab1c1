/**
 * Starting and stopping the service: the store, the app, the hourly sweep, graceful shutdown.
 * Shared by `main.ts`, `dev.ts` and the tests that run a real server.
 * @module
 */
import type { Config } from "./fresh.config.ts";
import { runHourlyJob } from "./lib/jobs/hourly.ts";
import { pause } from "./lib/pause.ts";
import { openStore, type Store } from "./lib/kv/store.ts";
import { describeError, type Logger, type LogLine, logLine } from "./lib/log/mod.ts";
import { FaultLog } from "./lib/log/fault.ts";
import { HostBlocklist } from "./lib/blocklist/mod.ts";
import { BlocklistFileError, watchBlocklistFile } from "./lib/blocklist/file.ts";
import { countSweeps } from "./lib/metrics/mod.ts";
import { createDeps } from "./routes/_lib/deps.ts";
import { createApp } from "./routes/mod.ts";

// The pause before serving again after the server stopped accepting connections.
const RESERVE_PAUSE_MS = 100;

/**
 * The service cannot start as configured: the message is one line for a person, naming the
 * variable to change and why.
 */
export class StartupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "StartupError";
  }
}

/** A running service. */
export interface RunningServer {
  /** Where it listens. */
  addr: Deno.NetAddr;
  /** Its store. */
  store: Store;
  /** Stops accepting, finishes what is in flight, flushes the clicks, closes the store. */
  stop(): Promise<void>;
  /** Stops gracefully on SIGTERM or SIGINT. */
  stopOnSignals(): void;
}

/** Options of {@linkcode startServer}. */
export interface StartOptions {
  /** Whether to register the hourly sweep; default true. */
  cron?: boolean;
  /** Whether to log where it listens; default true. */
  quiet?: boolean;
  /** Where the service's log lines go; default stdout. */
  log?: Logger;
}

/** Opens the store and serves the app as `config` says. */
export async function startServer(
  config: Config,
  options: StartOptions = {},
): Promise<RunningServer> {
  // A store that cannot be opened yet leaves the service up: what needs no store (version,
  // changelog, pages) answers, the rest answers 503 until the store opens.
  // The operator's blocklist is read before anything else: a file that cannot be read is a
  // bad value, which stops start-up.
  const blocklist = new HostBlocklist();
  const blocklistLog: { log: Logger | null } = { log: null };
  const stopBlocklist = config.blockedHostsFile === undefined
    ? () => {}
    : await watchBlocklist(blocklist, config.blockedHostsFile, blocklistLog);
  // A bad KV_PATH (a folder it may not write, a file in the way) or a full disk is mended
  // without a restart: the store is tried again, with backoff, and used once it opens.
  let unavailable: Error | null = null;
  let log: Logger | null = null;
  let openedEarly = false;
  const sayOpened = (to: Logger) =>
    to(logLine("info", "KV_PATH: the store is open; serving normally", { kvPath: where }));
  const where = config.kvPath ?? null;
  const store = await openStore(config.kvPath, {
    ttlMs: config.linkTtlMs,
    onUnavailable: (error) => unavailable = error,
    onOpened: () => log === null ? openedEarly = true : sayOpened(log),
  });
  const deps = await createDeps(config, store, { log: options.log, blocklist });
  blocklistLog.log = deps.log;
  if (config.blockedHostsFile !== undefined) {
    deps.log(logLine("info", "BLOCKED_HOSTS_FILE: read", {
      file: config.blockedHostsFile,
      hosts: blocklist.size,
    }));
  }
  if (unavailable !== null) {
    deps.log(logLine("error", "KV_PATH: the store cannot be opened; answering 503 until it opens", {
      kvPath: where,
      cause: (unavailable as Error).message,
    }));
    if (openedEarly) sayOpened(deps.log);
  }
  log = deps.log;
  const app = createApp(deps);
  deps.clicks.start();
  deps.removals.start();
  const sweeps = new AbortController();
  if (options.cron ?? true) {
    Deno.cron(
      "sweep expired links",
      "0 * * * *",
      { signal: sweeps.signal },
      () =>
        runHourlyJob(store, {
          log: deps.log,
          onSwept: countSweeps(deps.metrics),
          cache: deps.linkCache,
        }),
    );
  }
  let stopping: Promise<void> | null = null;
  // Deno's server stops accepting for good when accepting fails (out of file descriptors, say,
  // with many connections held open), and the process would then exit on the unhandled failure:
  // the service serves again instead, on the same port, once the connections it had are closed.
  const listen = (port: number, announce: boolean): Deno.HttpServer<Deno.NetAddr> => {
    const serving = Deno.serve({
      port,
      hostname: config.hostname,
      onListen: (addr) => {
        if (announce && !options.quiet) {
          console.log(
            `lapse listening on ${config.baseUrl} (${addr.hostname}:${addr.port}, pid ${Deno.pid})`,
          );
        }
      },
    }, app.fetch);
    serving.finished.catch(async (error) => {
      if (stopping !== null) return;
      deps.log(logLine("error", "the server stopped accepting connections; serving again", {
        error: describeError(error),
      }));
      await serving.shutdown().catch(() => {});
      for (let attempt = 1; stopping === null; attempt++) {
        await pause(RESERVE_PAUSE_MS);
        if (stopping !== null) return; // stopped meanwhile: nothing to serve again
        try {
          server = listen(serving.addr.port, false); // the port taken, when asked for any
          return;
        } catch (error) {
          if (attempt > 1) continue; // said once; tried again until it works
          deps.log(logLine("error", "serving again failed", { error: describeError(error) }));
        }
      }
    });
    return serving;
  };
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = listen(config.port, true);
  } catch (error) {
    stopBlocklist();
    sweeps.abort();
    await deps.clicks.stop();
    await deps.removals.stop();
    store.kv.close();
    throw listenError(error, config);
  }
  const addr = server.addr;
  // Its own address, the port picked included: a destination there points back to it.
  deps.listening = { hostname: config.hostname, port: addr.port };
  const stop = () =>
    stopping ??= (async () => {
      // Stop accepting and finish requests in flight, on whichever server is current.
      for (let current = server;; current = server) {
        await current.shutdown().catch(() => {});
        if (current === server) break;
      }
      sweeps.abort();
      stopBlocklist();
      await deps.clicks.stop(); // write every recorded visit
      deps.log(logLine("info", "stopped: every recorded click is written", {
        waiting: deps.clicks.pending,
      }));
      await deps.removals.stop();
      await deps.log.flush?.();
      store.kv.close();
    })();
  return {
    addr,
    store,
    stop,
    stopOnSignals() {
      for (const signal of ["SIGTERM", "SIGINT"] as const) {
        Deno.addSignalListener(signal, () => {
          stop().then(() => Deno.exit(0));
        });
      }
    },
  };
}

/**
 * Reads the blocklist at `path` into `list` and keeps it up to date, saying each read (and a file
 * that cannot be read, once while it lasts) through `to.log` once there is one. Throws
 * {@linkcode StartupError} when the file cannot be read now.
 */
async function watchBlocklist(
  list: HostBlocklist,
  path: string,
  to: { log: Logger | null },
): Promise<() => void> {
  const say = (line: LogLine) => to.log?.(line);
  const fault = new FaultLog({
    log: say,
    started: "BLOCKED_HOSTS_FILE: cannot be read; the last list read holds",
    lasting: "BLOCKED_HOSTS_FILE: still cannot be read",
    ended: "BLOCKED_HOSTS_FILE: can be read again",
  });
  try {
    return await watchBlocklistFile(list, path, {
      onRead: ({ names, unreadable }) =>
        say(logLine(unreadable.length > 0 ? "warn" : "info", "BLOCKED_HOSTS_FILE: read", {
          file: path,
          hosts: names,
          ...(unreadable.length > 0 ? { skipped: unreadable.slice(0, 20) } : {}),
        })),
      onFault: (error) =>
        error === null
          ? fault.succeeded()
          : fault.failed(error, { hostsHeld: list.size, unread: 1 }),
    });
  } catch (error) {
    if (!(error instanceof BlocklistFileError)) throw error;
    throw new StartupError(`BLOCKED_HOSTS_FILE: ${error.message}`, { cause: error });
  }
}

/** Why listening on `config`'s address failed, as one line naming the variable to change. */
function listenError(error: unknown, config: Config): Error {
  const where = `${config.hostname}:${config.port}`;
  const why = error instanceof Error ? error.message.replace(/ \(os error \d+\)$/, "") : "";
  if (error instanceof Deno.errors.AddrInUse) {
    return new StartupError(
      `PORT: ${config.port} is already in use on ${config.hostname}; stop what holds it, or set ` +
        "PORT to another",
      { cause: error },
    );
  }
  if (error instanceof Deno.errors.AddrNotAvailable) {
    return new StartupError(
      `HOSTNAME: ${config.hostname} is not an address of this machine (${why})`,
      { cause: error },
    );
  }
  if (error instanceof Deno.errors.PermissionDenied) {
    return new StartupError(`PORT: may not listen on ${where} (${why})`, { cause: error });
  }
  if (error instanceof Error && /lookup address|name or service not known/i.test(why)) {
    return new StartupError(
      `HOSTNAME: ${config.hostname} does not resolve to an address (${why})`,
      { cause: error },
    );
  }
  if (error instanceof Error) {
    return new StartupError(`PORT, HOSTNAME: cannot listen on ${where} (${why})`, {
      cause: error,
    });
  }
  return new StartupError(`PORT, HOSTNAME: cannot listen on ${where}`, { cause: error });
}
