/**
 * The access log: one structured line per request, written when it has been answered.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { isoTime, type Logger, type LogLine } from "../../lib/log/mod.ts";
import type { AppEnv } from "../_lib/env.ts";
import { routeLabel } from "../_lib/route_label.ts";

/** Options of {@linkcode accessLog}. */
export interface AccessLogOptions {
  /** Where the lines go. */
  log: Logger;
  /** Whether a redirect's 302 is logged too (`LOG_REDIRECTS=1`); default false. */
  logRedirects?: boolean;
}

/** What the access log says of one answered request. */
export interface AccessFields {
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string | undefined;
}

/**
 * {@linkcode AccessFields} of a request and when it was answered, for a line written later. A
 * class, not an object literal, so V8 never pretenures waiting lines into the old generation
 * (docs/decisions/2026-11-25-access-entries-not-literals.md).
 */
export class AccessEntry implements AccessFields {
  constructor(
    /** When the request was answered, in epoch ms. */
    readonly at: number,
    readonly method: string,
    readonly route: string,
    readonly path: string,
    readonly status: number,
    readonly durationMs: number,
    readonly requestId: string | undefined,
  ) {}
}

/**
 * The time since `start` (`performance.now()`) as the access log states it: in milliseconds, to
 * the microsecond.
 */
export function durationMsSince(start: number): number {
  return Math.round((performance.now() - start) * 1000) / 1000;
}

/** The access log's line for one request answered at `at` (epoch ms, default now). */
export function accessLine(fields: AccessFields, at?: number): LogLine {
  return {
    time: isoTime(at),
    level: "info",
    msg: "request",
    method: fields.method,
    route: fields.route,
    path: fields.path,
    status: fields.status,
    durationMs: fields.durationMs,
    requestId: fields.requestId,
  };
}

/**
 * {@linkcode accessLine} written straight to JSON, for the redirect's hot path. Its fields
 * must need no escaping: a method, a route pattern, a path of slug characters, a request id of
 * the characters {@linkcode SAFE_REQUEST_ID} allows.
 */
export function accessJson(entry: AccessEntry): string {
  const time = isoTime(entry.at);
  return `{"time":"${time}","level":"info","msg":"request","method":"${entry.method}",` +
    `"route":"${entry.route}","path":"${entry.path}","status":${entry.status},` +
    `"durationMs":${entry.durationMs},"requestId":"${entry.requestId}"}`;
}

/**
 * Logs the access line of `entry`, whose fields need no escaping (see
 * {@linkcode accessJson}): rendered when the logger writes out, when it can wait.
 */
export function writeAccess(log: Logger, entry: AccessEntry): void {
  if (log.later) log.later(entry, accessJson);
  else log(accessLine(entry, entry.at));
}

/**
 * Logs `{time, level: "info", msg: "request", method, route, path, status, durationMs,
 * requestId}` for every request, once it is answered; a redirect's 302 only with
 * `logRedirects`. The query string is left out: it can
 * hold addresses and slugs a log has no need of.
 */
export function accessLog(options: AccessLogOptions): MiddlewareHandler<AppEnv> {
  const { log } = options;
  const logRedirects = options.logRedirects ?? false;
  return async function accessLog(c, next) {
    const start = performance.now();
    await next();
    if (c.get("redirect") && !logRedirects) return;
    // Any path can come here, so this line is escaped by JSON.stringify.
    log(accessLine({
      method: c.req.method,
      route: routeLabel(c),
      path: c.req.path,
      status: c.res.status,
      durationMs: durationMsSince(start),
      requestId: c.get("requestId"),
    }));
  };
}
