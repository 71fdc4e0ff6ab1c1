/**
 * Who is asking: the client address rate limits are kept by.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "./env.ts";

/**
 * The client's address: the first `X-Forwarded-For` entry when the proxy is trusted, otherwise
 * the socket peer; `"unknown"` when neither is known.
 */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const first = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (first) return first;
  }
  return c.env?.remoteAddr?.hostname || "unknown";
}
