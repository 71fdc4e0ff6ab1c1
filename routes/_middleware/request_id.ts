/**
 * Request ids: each request gets one, sent back as `X-Request-Id` and written on its log lines.
 * Hono's `requestId` sets it, by the rule of {@linkcode requestIdFor}.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { requestId as honoRequestId } from "hono/request-id";
import type { AppEnv } from "../_lib/env.ts";

/** An incoming id is kept only when it looks like this; anything else gets a fresh one. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Options of {@linkcode requestId}. */
export interface RequestIdOptions {
  /** The header read and sent; default `X-Request-Id`. */
  header?: string;
  /** Makes a fresh id; default {@linkcode newRequestId}. */
  generate?: () => string;
}

// A random prefix per process and a counter: unique across instances, and far cheaper than a
// random UUID per request on the redirect's hot path.
const PROCESS_PREFIX = crypto.randomUUID().slice(0, 8);
let counter = 0;

/** A fresh request id: this process's random prefix and a counter, `1f0c9a2e-1a2b`. */
export function newRequestId(): string {
  return `${PROCESS_PREFIX}-${(++counter).toString(36)}`;
}

/** The id of a request that sent `given`: `given` when it is safe to log, else a fresh one. */
export function requestIdFor(
  given: string | null | undefined,
  generate: () => string = newRequestId,
): string {
  return given != null && SAFE_REQUEST_ID.test(given) ? given : generate();
}

/**
 * Gives the request an id: the client's `X-Request-Id` when it is safe to log (see
 * {@linkcode SAFE_REQUEST_ID}), else a fresh one. It is set as the `requestId` variable and sent
 * back on the response, except on a redirect's 302 (see `RequestVariables.redirect`).
 */
export function requestId(options: RequestIdOptions = {}): MiddlewareHandler<AppEnv> {
  const header = options.header ?? "X-Request-Id";
  const generate = options.generate ?? newRequestId;
  // No header name: Hono's own rule ([\w=-] only) never sees the id, which ours then chooses.
  const assign = honoRequestId({
    headerName: "",
    generator: (c) => requestIdFor(c.req.header(header), generate),
  });
  return async function requestId(c, next) {
    await assign(c, next);
    if (!c.get("redirect")) c.res.headers.set(header, c.get("requestId")); // sent, as Hono will not
  };
}
