/**
 * The cross-site rule: which state-changing requests a page of another site may not send. A
 * browser sends a form post, or a `fetch` with a simple body, without asking first (no CORS
 * preflight), and with the visitor's cookies and address; such a request from another site is
 * refused before it changes or counts anything.
 * @module
 */

/** The methods that change state; every other method is left alone. */
const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The body types a browser sends to another origin without a preflight. */
const SIMPLE_TYPES = new Set([
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "text/plain",
]);

/** What the rule reads of a request: its method, path and a few headers. */
export interface CrossSiteRequest {
  method: string;
  path: string;
  /** `Sec-Fetch-Site`, when sent. */
  fetchSite?: string | null;
  /** `Origin`, when sent. */
  origin?: string | null;
  /** `Host`, when sent. */
  host?: string | null;
  /** `Content-Type`, when sent. */
  contentType?: string | null;
}

/** Why a request is refused: sent as a form from another site, or an unlock from another site. */
export type CrossSiteRefusal = "simple" | "unlock";

/** Refusal sentence of a request a page of another site sent without a preflight. */
export const CROSS_SITE_SIMPLE =
  "a page on another site may not send this request without a CORS preflight";

/** Refusal sentence of an unlock sent by a page of another site, whatever its body. */
export const CROSS_SITE_UNLOCK = "a page on another site may not send passwords to this service";

/**
 * Whether the rule refuses `request`, and why; `null` lets it through. `baseOrigin` is
 * `BASE_URL`'s origin. A request with neither `Sec-Fetch-Site` nor `Origin` (curl, a server)
 * is never refused.
 */
export function crossSiteRefusal(
  request: CrossSiteRequest,
  baseOrigin: string,
): CrossSiteRefusal | null {
  if (!STATE_CHANGING.has(request.method.toUpperCase())) return null;
  if (!fromAnotherSite(request, baseOrigin)) return null;
  if (request.path === "/api/unlock") return "unlock";
  return sentWithoutPreflight(request.contentType) ? "simple" : null;
}

/**
 * `Sec-Fetch-Site` says so (`cross-site`, `same-site`); without it, an `Origin` that is neither
 * the request's own host nor `BASE_URL`'s origin does (`null` included).
 */
function fromAnotherSite(request: CrossSiteRequest, baseOrigin: string): boolean {
  const fetchSite = request.fetchSite?.trim().toLowerCase();
  if (fetchSite) return fetchSite === "cross-site" || fetchSite === "same-site";
  const origin = request.origin?.trim();
  if (origin === undefined || origin === null) return false;
  if (origin === baseOrigin) return false;
  return !namesHost(origin, request.host ?? "");
}

// Whether `origin` names `host` (a Host header's value), read with the origin's scheme so a
// default port written out (`:443`) or left out compares equal.
function namesHost(origin: string, host: string): boolean {
  if (host === "" || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const own = `${url.protocol}//${host}`;
  return URL.canParse(own) && new URL(own).host === url.host;
}

/**
 * Whether a browser sends a body of this type without a preflight: the three form and text
 * types, or no type at all (no body, or an untyped one, which the service reads as JSON).
 */
function sentWithoutPreflight(contentType: string | null | undefined): boolean {
  const essence = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return essence === "" || SIMPLE_TYPES.has(essence);
}
