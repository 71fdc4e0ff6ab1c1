/**
 * Request metrics: every request counted by route pattern, method and status, and the redirect's
 * latency observed.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type { Metrics } from "../../lib/metrics/mod.ts";
import type { AppEnv } from "../_lib/env.ts";
import { routeLabel } from "../_lib/route_label.ts";

/** The redirect's route pattern, whose latency is observed. */
export const REDIRECT_ROUTE = "/:slug";

/** Options of {@linkcode countRequests}. */
export interface CountRequestsOptions {
  /** The registry counted into. */
  metrics: Metrics;
}

/**
 * Counts each answered request under the pattern of the route that answered it (see
 * {@linkcode countAnswered}).
 */
export function countRequests(options: CountRequestsOptions): MiddlewareHandler<AppEnv> {
  const { metrics } = options;
  return async function countRequests(c, next) {
    const start = performance.now();
    await next();
    countAnswered(metrics, routeLabel(c), c.req.method, c.res.status, start);
  };
}

/**
 * Counts one request answered with `status` under `route`, and observes the time since `start`
 * (`performance.now()`) when it is `GET|HEAD /<slug>` (not a POST, which opens a link in the
 * store). The middleware and the redirect's fast path both count through this. It only adds to
 * numbers: no key is built per request.
 */
export function countAnswered(
  metrics: Metrics,
  route: string,
  method: string,
  status: number,
  start: number,
): void {
  metrics.requests.inc(route, method, status);
  if (route === REDIRECT_ROUTE && method !== "POST") {
    metrics.redirectSeconds.observe((performance.now() - start) / 1000);
  }
}
