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
 * Counts each answered request under the pattern of the route that answered it, and observes
 * the time `GET|HEAD /<slug>` took (not a POST's, which opens a link in the store). It only adds to numbers: no key is built per request.
 */
export function countRequests(options: CountRequestsOptions): MiddlewareHandler<AppEnv> {
  const { requests, redirectSeconds } = options.metrics;
  return async function countRequests(c, next) {
    const start = performance.now();
    await next();
    const route = routeLabel(c);
    requests.inc(route, c.req.method, c.res.status);
    if (route === REDIRECT_ROUTE && c.req.method !== "POST") {
      redirectSeconds.observe((performance.now() - start) / 1000);
    }
  };
}
