/**
 * An app over `:memory:` KV with a clock the test moves, for in-process API tests.
 * @module
 */
import type { Hono } from "hono";
import { type Config, loadConfig } from "../../fresh.config.ts";
import { createStore, type Store } from "../../lib/kv/store.ts";
import type { LinkCache } from "../../lib/links/cache.ts";
import type { RemovalWatchOptions } from "../../lib/links/removal_watch.ts";
import { type Logger, silentLogger } from "../../lib/log/mod.ts";
import type { PreviewOptions } from "../../lib/preview/mod.ts";
import type { AppDeps, AppEnv } from "../../routes/_lib/env.ts";
import { createDeps } from "../../routes/_lib/deps.ts";
import { createApp } from "../../routes/mod.ts";
import { type Faults, faultyKv } from "./faults.ts";

/** The base URL tests run under. */
export const TEST_BASE_URL = "http://sho.rt";

/** A test app and what it is built on. */
export interface TestApp extends AsyncDisposable {
  app: Hono<AppEnv>;
  deps: AppDeps;
  store: Store;
  /** The app's link cache (`deps.linkCache`). */
  linkCache: LinkCache;
  config: Config;
  /** The fake clock, epoch ms; move it with {@linkcode TestApp.advance}. */
  now(): number;
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void;
  /** Sends a request to the app from `client` (default 192.0.2.1). */
  request(path: string, init?: RequestInit, client?: string): Promise<Response>;
  /** Sends a request built elsewhere (any URL, raw path and body) from `client`. */
  send(request: Request, client?: string): Promise<Response>;
  /** Sends a JSON body with `method` (default POST). */
  json(path: string, body: unknown, init?: RequestInit & { client?: string }): Promise<Response>;
}

/** Options of {@linkcode testApp}. */
export interface TestAppOptions {
  /** Environment overrides for the configuration. */
  env?: Record<string, string>;
  /** Start of the fake clock; default 2026-11-02T12:00:00Z. */
  start?: number;
  /** The network previews use (resolver, dialer, bounds); default the real one. */
  preview?: PreviewOptions;
  /** Where the app's log lines go; default nowhere, so tests stay quiet. */
  log?: Logger;
  /** Store faults to inject: the KV fails as these switches say (see `faults.ts`). */
  faults?: Faults;
  /** Options of the app's removal watch, which the test starts (`deps.removals`). */
  removals?: RemovalWatchOptions;
}

/** Builds an app over a fresh `:memory:` store. */
export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({
    BASE_URL: TEST_BASE_URL,
    // Every figure written within about 2 s, as the tests read them.
    STATS_LAG_SECONDS: "1",
    ...options.env,
  });
  let clock = options.start ?? Date.UTC(2026, 10, 2, 12);
  const kv = await Deno.openKv(":memory:");
  const store = createStore(options.faults ? faultyKv(kv, options.faults) : kv, {
    ttlMs: config.linkTtlMs,
    now: () => clock,
  });
  const deps: AppDeps = {
    ...await createDeps(config, store, {
      log: options.log ?? silentLogger(),
      removals: options.removals,
    }),
    preview: options.preview,
  };
  const app = createApp(deps);
  const request = (path: string, init?: RequestInit, client = "192.0.2.1") =>
    Promise.resolve(app.request(path, init, { remoteAddr: { hostname: client } }));
  return {
    app,
    deps,
    store: deps.store,
    linkCache: deps.linkCache,
    config,
    now: () => clock,
    advance: (ms) => {
      clock += ms;
    },
    request,
    send: (req, client = "192.0.2.1") =>
      Promise.resolve(app.fetch(req, { remoteAddr: { hostname: client } })),
    json: (path, body, { client, ...init } = {}) =>
      request(path, {
        method: "POST",
        ...init,
        headers: { "Content-Type": "application/json", ...init.headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }, client),
    [Symbol.asyncDispose]() {
      try {
        kv.close();
      } catch {
        // A test that takes the store down has closed it already.
      }
      return Promise.resolve();
    },
  };
}

/** The fields of a link as create and bulk answer it, sorted. */
export const LINK_VIEW_FIELDS: readonly string[] = [
  "expiresAt",
  "expiresInDays",
  "maxVisits",
  "protected",
  "shortUrl",
  "slug",
  "title",
  "url",
  "visitsLeft",
];
