/**
 * The service's redirects: every one sends the same two headers as the short link's, so no
 * cache keeps it and its destination learns where the visitor came from.
 * @module
 */
import type { Context } from "hono";

/** The headers every redirect the service answers carries, the short link's included. */
export const REDIRECT_HEADERS: Readonly<Record<string, string>> = {
  "referrer-policy": "unsafe-url",
  "cache-control": "no-store",
};

/** A redirect to `location` with `status`, carrying {@linkcode REDIRECT_HEADERS}. */
export function redirectWithPolicy(c: Context, location: string, status: 301 | 303): Response {
  const response = c.redirect(location, status);
  for (const [name, value] of Object.entries(REDIRECT_HEADERS)) response.headers.set(name, value);
  return response;
}

/**
 * A path asked for with a trailing slash: 301 to `path`, the request's query kept, carrying
 * {@linkcode REDIRECT_HEADERS}.
 */
export function withoutTrailingSlash(c: Context, path: string): Response {
  return redirectWithPolicy(c, `${path}${new URL(c.req.url).search}`, 301);
}
