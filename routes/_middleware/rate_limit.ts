/**
 * Per-client rate limits (an IPv6 client by its /64), with the standard headers on every limited
 * response.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { RateLimitedError } from "../../lib/errors.ts";
import { countRequest, type RateLimit } from "../../lib/rate_limit/mod.ts";
import { clientGroup } from "../_lib/client.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";

/**
 * Counts the request against `rule` for its client; over the limit it throws
 * `RateLimitedError` (429). `RateLimit-*` headers go on the response either way: this rule's, or
 * those of a narrower limit that refused the request in the handler.
 */
export function rateLimit(deps: AppDeps, rule: RateLimit): MiddlewareHandler<AppEnv> {
  return async function rateLimit(c, next) {
    const client = clientGroup(c, deps.config.trustProxy);
    const decision = await countRequest(deps.store, rule, client);
    const headers = {
      "RateLimit-Limit": String(decision.limit),
      "RateLimit-Remaining": String(decision.remaining),
      "RateLimit-Reset": String(decision.retryAfterSeconds),
    };
    if (!decision.allowed) {
      deps.metrics.rateLimited.inc(rule.name);
      throw new RateLimitedError(rule.limit, rule.windowMs, decision.retryAfterSeconds);
    }
    await next();
    // A narrower limit that refused the request (a link's wrong passwords) set its own.
    if (c.error instanceof RateLimitedError) return;
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
