/**
 * The access log: one structured line per request, written when it has been answered.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { type Logger, type LogLine, logLine } from "../../lib/log/mod.ts";
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
 * Logs `{time, level: "info", msg: "request", method, route, path, status, durationMs,
 * requestId}` for every request, once it is answered. The query string is left out: it can
 * hold addresses and slugs a log has no need of.
 */
export function accessLog(options: AccessLogOptions): MiddlewareHandler<AppEnv> {
  const { log } = options;
  return async function accessLog(c, next) {
    const start = performance.now();
    await next();
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
