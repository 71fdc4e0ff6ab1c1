/**
 * The access log: one structured line per request, written when it has been answered.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { isoNow, type Logger, type LogLine, logLine } from "../../lib/log/mod.ts";
import type { AppEnv } from "../_lib/env.ts";
import { routeLabel } from "../_lib/route_label.ts";

/** Options of {@linkcode accessLog}. */
export interface AccessLogOptions {
  /** Where the lines go. */
  log: Logger;
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

/** The access log's line for one answered request. */
export function accessLine(fields: AccessFields): LogLine {
  return logLine("info", "request", { ...fields });
}

/**
 * {@linkcode accessLine} written straight to JSON, for the redirect's hot path. Its fields
 * must need no escaping: a method, a route pattern, a path of slug characters, a request id of
 * the characters {@linkcode SAFE_REQUEST_ID} allows.
 */
export function accessJson(fields: AccessFields): string {
  return `{"time":"${isoNow()}","level":"info","msg":"request","method":"${fields.method}",` +
    `"route":"${fields.route}","path":"${fields.path}","status":${fields.status},` +
    `"durationMs":${fields.durationMs},"requestId":"${fields.requestId}"}`;
}

/**
 * Writes the access line of fields that need no escaping (see {@linkcode accessJson}) to `log`,
 * as JSON text when the logger takes it.
 */
export function writeAccess(log: Logger, fields: AccessFields): void {
  if (log.json) log.json(accessJson(fields));
  else log(accessLine(fields));
}

/**
 * Logs `{time, level: "info", msg: "request", method, route, path, status, durationMs,
 * requestId}` for every request, once it is answered. The query string is left out: it can
 * hold addresses and slugs a log has no need of.
 */
export function accessLog(options: AccessLogOptions): MiddlewareHandler<AppEnv> {
  const { log } = options;
  return async function accessLog(c, next) {
    const start = performance.now();
    await next();
    // Any path can come here, so this line is escaped by JSON.stringify.
    log(accessLine({
      method: c.req.method,
      route: routeLabel(c),
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - start) * 1000) / 1000,
      requestId: c.get("requestId"),
    }));
  };
}
