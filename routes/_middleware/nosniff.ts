/**
 * `X-Content-Type-Options: nosniff` on every answer with a body: an error sentence echoes what
 * the client sent (a path, a slug), and an export carries titles and notes anyone wrote, so no
 * browser should read either as anything but the type it is sent as. Hono's `secureHeaders`
 * sets it.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";

// Hono's secure headers with `nosniff` alone: the pages set their own policies.
const onlyNosniff = secureHeaders({
  xContentTypeOptions: true,
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  removePoweredBy: false,
});

/** Adds `nosniff` to each response that says its content type. */
export function nosniff(): MiddlewareHandler {
  return async function nosniff(c, next) {
    await next();
    // Only an answer that says its type (not a redirect, a 204), as on the redirect's fast path.
    if (c.res.headers.has("content-type")) await onlyNosniff(c, () => Promise.resolve());
  };
}
