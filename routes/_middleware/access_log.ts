/**
 * The access log: one structured line per request, written when it has been answered.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { type Logger, logLine } from "../../lib/log/mod.ts";
import type { AppEnv } from "../_lib/env.ts";
import { routeLabel } from "../_lib/route_label.ts";

/** Options of {@linkcode accessLog}. */
export interface AccessLogOptions {
  /** Where the lines go. */
  log: Logger;
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
    const durationMs = Math.round((performance.now() - start) * 1000) / 1000;
    log(logLine("info", "request", {
      method: c.req.method,
      route: routeLabel(c),
      path: c.req.path,
      status: c.res.status,
      durationMs,
      requestId: c.get("requestId"),
    }));
  };
}
