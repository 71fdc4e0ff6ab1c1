/**
 * The short link's own answer, shared by the redirect's fast path and its route: the 302, and
 * the visit it records.
 * @module
 */
import type { DatedLinkRecord } from "../../lib/links/record.ts";
import { proxyCountry } from "../../lib/clicks/classify.ts";
import { describeError, logLine } from "../../lib/log/mod.ts";
import { clientOf } from "./client.ts";
import type { AppDeps, ConnectionInfo } from "./env.ts";
import { EXPOSED_HEADERS } from "../_middleware/cors.ts";
import { REDIRECT_HEADERS } from "./redirect.ts";

/**
 * The 302 to `record`'s destination: the referrer travels on, and no cache keeps the visit. It
 * carries no `X-Request-Id` and is not access-logged unless `LOG_REDIRECTS=1` (docs/api.md).
 */
export function redirectTo(record: DatedLinkRecord): Response {
  let template = (record as WithRedirect)[REDIRECT];
  if (template === undefined) {
    template = new Response(null, {
      status: 302,
      headers: [
        ["location", record.url],
        ...Object.entries(REDIRECT_HEADERS),
        ["access-control-allow-origin", "*"],
        ["access-control-expose-headers", EXPOSED_HEADERS],
      ],
    });
    // Not enumerable: no view, copy or store write of the record carries it.
    if (Object.isExtensible(record)) Object.defineProperty(record, REDIRECT, { value: template });
  }
  return template.clone();
}

// Each link's 302, made once for the record a cache holds: a clone copies its headers without
// checking them again, a tenth of a new Response's cost. Kept on the record, as long as it
// lives, rather than in a WeakMap, whose 10,000 entries every full collection of V8 walked in
// its pause (docs/benchmarks.md).
const REDIRECT = Symbol("302");
type WithRedirect = DatedLinkRecord & { [REDIRECT]?: Response };

/** Records a GET's visit for the click figures; tracking never breaks a redirect. */
export function recordVisit(
  deps: AppDeps,
  record: DatedLinkRecord,
  headers: Headers,
  connection: ConnectionInfo | undefined,
  now?: number,
): void {
  try {
    const trusted = deps.config.trustProxy;
    deps.clicks.recordVisit(
      record,
      headers.get("user-agent") ?? "",
      headers.get("referer") ?? "",
      clientOf(headers, connection, trusted),
      trusted ? proxyCountry((name) => headers.get(name)) : "",
      now,
    );
  } catch (error) {
    deps.log(logLine("error", "recording a click failed", { error: describeError(error) }));
  }
}
