/**
 * The service's configuration: read from the environment, validated, typed.
 *
 * A bad value stops start-up with a message naming the variable and what it expects.
 * @module
 */
import { z } from "zod";

/** The validated configuration every part of the service reads. */
export interface Config {
  /** Port the server listens on. */
  port: number;
  /** Interface the server binds to. */
  hostname: string;
  /** Public origin without a trailing slash; short URLs are `baseUrl/<slug>`. */
  baseUrl: string;
  /** Host of `baseUrl`, lower case, without `www.`: "the service host". */
  serviceHost: string;
  /** Local KV file, a KV Connect URL, or `undefined` for the platform's default store. */
  kvPath: string | undefined;
  /** Lifetime of a link in milliseconds. */
  linkTtlMs: number;
  /** Whether the first `X-Forwarded-For` entry and country headers are trusted. */
  trustProxy: boolean;
  /** HMAC key for unlock cookies; `undefined` means generated once and kept in the store. */
  cookieSecret: string | undefined;
  /**
   * How long a link's last use, its breakdown and rank, and the service-wide figures may lag a
   * visit, in ms; a link's clicks lag at most 2 s whatever this is (docs/api.md).
   */
  statsLagMs: number;
  /** Whether each 302 of a cached link is access-logged; by default it is not. */
  logRedirects: boolean;
  /** The operator's file of blocked destination hosts, one a line; `undefined` when none. */
  blockedHostsFile: string | undefined;
}

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  /** Builds the error from the list of problems found. */
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const integer = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(
    z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
  );

// A switch: the error names every value taken.
const boolean = () =>
  z.enum(["1", "0", "true", "false"], { error: "must be 1, 0, true or false" }).optional();

const envSchema = z.object({
  PORT: integer(0, 65535).default(8000),
  HOSTNAME: z.string().trim().min(1, "must not be empty").default("0.0.0.0"),
  BASE_URL: z.string().trim().optional(),
  KV_PATH: z.string().trim().optional(),
  // At most a year: a link keeps a share of each day it is clicked on, and a year of them (with
  // every referrer and country a link may hold) still fits one commit when the link is retired,
  // and one record. The product's links live seven days; tests shorten it.
  LINK_TTL_SECONDS: integer(1, 365 * 24 * 3600).default(604800),
  TRUST_PROXY: boolean(),
  COOKIE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // A link's record and the service-wide figures are written once per this many seconds at
  // most; its clicks every second whatever it is (docs/decisions/2026-11-28-click-layout.md).
  STATS_LAG_SECONDS: integer(1, 300).default(60),
  LOG_REDIRECTS: boolean(),
  BLOCKED_HOSTS_FILE: z.string().trim().optional(),
});

/** The environment variables the service reads. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** The default local store when `KV_PATH` is not set outside Deno Deploy. */
export const DEFAULT_KV_PATH = "./data/links.kv";

/**
 * Reads the configuration from `env` (by default the process environment).
 *
 * Throws {@linkcode ConfigError} listing every bad value.
 */
export function loadConfig(env: Record<string, string | undefined> = readEnv()): Config {
  // An empty variable reads as unset, as shells and process managers often leave them.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  }
  const vars = parsed.data;
  const problems: string[] = [];
  const baseUrl = parseBaseUrl(vars.BASE_URL ?? `http://localhost:${vars.PORT}`, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const onDeploy = given.DENO_DEPLOYMENT_ID !== undefined;
  return {
    port: vars.PORT,
    hostname: vars.HOSTNAME,
    baseUrl: baseUrl.origin,
    serviceHost: baseUrl.hostname.toLowerCase().replace(/^www\./, ""),
    kvPath: vars.KV_PATH || (onDeploy ? undefined : DEFAULT_KV_PATH),
    linkTtlMs: vars.LINK_TTL_SECONDS * 1000,
    trustProxy: vars.TRUST_PROXY === "1" || vars.TRUST_PROXY === "true",
    cookieSecret: vars.COOKIE_SECRET,
    statsLagMs: vars.STATS_LAG_SECONDS * 1000,
    logRedirects: vars.LOG_REDIRECTS === "1" || vars.LOG_REDIRECTS === "true",
    blockedHostsFile: vars.BLOCKED_HOSTS_FILE,
  };
}

function parseBaseUrl(value: string, problems: string[]): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`BASE_URL: must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
    return new URL("http://invalid");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    problems.push("BASE_URL: must use http or https");
  }
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    problems.push("BASE_URL: must be an origin only, without path, query or credentials");
  }
  return url;
}

function readEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const name of [...CONFIG_VARIABLES, "DENO_DEPLOYMENT_ID"]) env[name] = Deno.env.get(name);
  return env;
}
