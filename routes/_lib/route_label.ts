/**
 * Naming the route that answered a request, for logs and metrics.
 * @module
 */
import type { Context } from "hono";
import { routePath } from "hono/route";

/**
 * The pattern of the route that answered (`/api/create`, `/:slug`, `/static/*`), read after the
 * handlers ran: a pattern the app registered, never the raw path, so the set stays small. A
 * request that app-wide middleware answered (a preflight) or no route matched gives `/*`.
 */
export function routeLabel(c: Context): string {
  return routePath(c) || "/*";
}
