/**
 * The attributes every cookie the service sets carries.
 * @module
 */
import type { CookieOptions } from "hono/utils/cookie";
import type { Config } from "../../fresh.config.ts";

/**
 * A cookie of the whole site that no script reads, sent on a navigation from another site but not
 * with its posts, and only over HTTPS where the service is served over it; `lifetime` adds how
 * long it is kept.
 */
export function cookieOptions(config: Config, lifetime: CookieOptions = {}): CookieOptions {
  return {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: config.baseUrl.startsWith("https:"),
    ...lifetime,
  };
}
