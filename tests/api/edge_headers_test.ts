/**
 * The whole header set of the edge's answers, pinned: names and values of a table of requests
 * (pages, API calls, redirects by the router and by the fast path, preflights, the router's
 * OPTIONS answers, errors, request ids kept and replaced). Only the date, lengths, fresh ids,
 * validators and cookie tokens are left out, being different on each run.
 * @module
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import type { Faults } from "../_helpers/faults.ts";
import type { LogLine } from "../../lib/log/mod.ts";

/** A fresh request id: this process's random prefix and a counter. */
const FRESH_ID = /^[0-9a-f]{8}-[0-9a-z]+$/;

/** A request of the table: its name, path and init. */
type Row = [name: string, path: string, init?: RequestInit];

const PREFLIGHT = {
  Origin: "https://else.example",
  "Access-Control-Request-Method": "POST",
  "Access-Control-Request-Headers": "content-type, x-custom",
};
const FORM = { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" };
const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const withId = (id: string): RequestInit => ({ headers: { "X-Request-Id": id } });

/** The requests, in the order sent: some depend on those before (a link made, a limit used). */
const ROWS: Row[] = [
  ["page", "/"],
  ["page HEAD", "/", { method: "HEAD" }],
  ["page gzipped", "/docs", { headers: { "Accept-Encoding": "gzip" } }],
  ["version", "/api/version"],
  ["version HEAD", "/api/version", { method: "HEAD" }],
  ["create", "/api/create", json({ url: "example.com/pinned", slug: "pinned" })],
  ["create protected", "/api/create", json({ url: "example.com/hid", slug: "locked", pass: "pw" })],
  ["create bad JSON", "/api/create", json("{bad")],
  ["create form", "/api/create", {
    method: "POST",
    headers: FORM,
    body: "url=example.com%2Fa&slug=formed",
  }],
  ["redirect by the router", "/pinned"],
  ["redirect by the fast path", "/pinned"],
  ["redirect HEAD", "/pinned", { method: "HEAD" }],
  ["redirect with an id", "/pinned", withId("abc.def")],
  ["locked", "/locked"],
  [
    "create limited",
    "/api/create",
    json({ url: "example.com/ltd", slug: "limited", maxVisits: 2 }),
  ],
  ["Open page", "/limited"],
  ["Open", "/limited", { method: "POST" }],
  ["unlock", "/api/unlock", json({ slug: "locked", pass: "pw" })],
  ["unlock form", "/api/unlock", { method: "POST", headers: FORM, body: "slug=locked&pass=pw" }],
  ["unknown page", "/nothing"],
  ["unknown API path", "/api/nothing"],
  ["wrong method on the API", "/api/version", { method: "POST" }],
  ["wrong method on a page", "/docs", { method: "POST" }],
  ["links with the store down", "/api/links"],
  ["static file", "/static/favicon.svg"],
  ["static file unchanged", "/static/favicon.svg", { headers: { "If-None-Match": "*" } }],
  ["metrics", "/metrics"],
  ["export CSV", "/api/export?format=csv"],
  ["QR code", "/api/qr?slug=pinned"],
  ["preflight", "/api/create", { method: "OPTIONS", headers: PREFLIGHT }],
  ["preflight bare", "/api/sweep", { method: "OPTIONS" }],
  ["OPTIONS on an unknown API path", "/api/x", { method: "OPTIONS", headers: PREFLIGHT }],
  ["OPTIONS on the home page", "/", { method: "OPTIONS", headers: PREFLIGHT }],
  ["OPTIONS on a live link", "/pinned", { method: "OPTIONS", headers: PREFLIGHT }],
  ["OPTIONS on a free name", "/nobody", { method: "OPTIONS" }],
  ["id with a dot", "/api/version", withId("abc.def")],
  ["id with an equals sign", "/api/version", withId("a=b")],
  ["id of 64 characters", "/api/version", withId("a".repeat(64))],
  ["id of 65 characters", "/api/version", withId("a".repeat(65))],
  ["id with a space", "/api/version", withId("bad id")],
  ...Array.from({ length: 5 }, (_, i): Row => [`bulk ${i + 1}`, "/api/bulk", json("{bad")]),
  ["bulk over the limit", "/api/bulk", json("{bad")],
];

/** The two headers every answer carries. */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id, Location",
};
/** The policy of every page. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** What every JSON answer of the API carries. */
const JSON_ANSWER = {
  ...CORS,
  "content-type": "application/json",
  "vary": "Accept-Encoding",
  "x-content-type-options": "nosniff",
  "x-request-id": "<fresh>",
};
/** What every HTML page carries. */
const PAGE_ANSWER = {
  ...CORS,
  "content-security-policy": CSP,
  "content-type": "text/html; charset=utf-8",
  "referrer-policy": "strict-origin-when-cross-origin",
  "vary": "Accept-Encoding",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "x-request-id": "<fresh>",
};
/** The pinned answers: status, then every header (lower case) and its value. */
const EXPECTED: Record<string, [number, Record<string, string>]> = {
  "page": [200, PAGE_ANSWER],
  "page HEAD": [200, PAGE_ANSWER],
  "page gzipped": [200, {
    ...PAGE_ANSWER,
    "content-encoding": "gzip",
  }],
  "version": [200, JSON_ANSWER],
  "version HEAD": [200, JSON_ANSWER],
  "create": [201, {
    ...JSON_ANSWER,
    "location": "http://sho.rt/pinned",
    "ratelimit-limit": "30",
    "ratelimit-remaining": "29",
    "ratelimit-reset": "60",
  }],
  "create protected": [201, {
    ...JSON_ANSWER,
    "location": "http://sho.rt/locked",
    "ratelimit-limit": "30",
    "ratelimit-remaining": "28",
    "ratelimit-reset": "60",
  }],
  "create bad JSON": [400, {
    ...JSON_ANSWER,
    "ratelimit-limit": "30",
    "ratelimit-remaining": "27",
    "ratelimit-reset": "60",
  }],
  "create form": [303, {
    ...CORS,
    "cache-control": "no-store",
    "location": "/?made=formed",
    "ratelimit-limit": "30",
    "ratelimit-remaining": "26",
    "ratelimit-reset": "60",
    "referrer-policy": "unsafe-url",
    "set-cookie": "lapse_made=<token>; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax",
    "x-request-id": "<fresh>",
  }],
  "redirect by the router": [302, {
    ...CORS,
    "cache-control": "no-store",
    "location": "https://example.com/pinned",
    "referrer-policy": "unsafe-url",
  }],
  "redirect by the fast path": [302, {
    ...CORS,
    "cache-control": "no-store",
    "location": "https://example.com/pinned",
    "referrer-policy": "unsafe-url",
  }],
  "redirect HEAD": [302, {
    ...CORS,
    "cache-control": "no-store",
    "location": "https://example.com/pinned",
    "referrer-policy": "unsafe-url",
  }],
  "redirect with an id": [302, {
    ...CORS,
    "cache-control": "no-store",
    "location": "https://example.com/pinned",
    "referrer-policy": "unsafe-url",
  }],
  "locked": [401, {
    ...PAGE_ANSWER,
    "cache-control": "no-store",
    // The unlock form's post is redirected on to the link's destination, on any site.
    "content-security-policy":
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self' http: https:; frame-ancestors 'none'",
  }],
  "create limited": [201, {
    ...JSON_ANSWER,
    "location": "http://sho.rt/limited",
    "ratelimit-limit": "30",
    "ratelimit-remaining": "25",
    "ratelimit-reset": "60",
  }],
  "Open page": [200, {
    ...PAGE_ANSWER,
    "cache-control": "no-store",
    // The Open button's post is redirected on to the link's destination, on any site.
    "content-security-policy":
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self' http: https:; frame-ancestors 'none'",
  }],
  // A POST that takes a visit is logged and has its id, unlike the redirect's 302.
  "Open": [303, {
    ...CORS,
    "cache-control": "no-store",
    "location": "https://example.com/ltd",
    "referrer-policy": "unsafe-url",
    "x-request-id": "<fresh>",
  }],
  "unlock": [200, {
    ...JSON_ANSWER,
    "ratelimit-limit": "10",
    "ratelimit-remaining": "9",
    "ratelimit-reset": "60",
    "set-cookie":
      "unlock_locked=<token>; Max-Age=604800; Path=/; Expires=Mon, 09 Nov 2026 12:00:00 GMT; HttpOnly; SameSite=Lax",
  }],
  "unlock form": [303, {
    ...CORS,
    "cache-control": "no-store",
    "location": "/locked",
    "ratelimit-limit": "10",
    "ratelimit-remaining": "8",
    "ratelimit-reset": "60",
    "referrer-policy": "unsafe-url",
    "set-cookie":
      "unlock_locked=<token>; Max-Age=604800; Path=/; Expires=Mon, 09 Nov 2026 12:00:00 GMT; HttpOnly; SameSite=Lax",
    "x-request-id": "<fresh>",
  }],
  "unknown page": [404, { ...PAGE_ANSWER, "cache-control": "no-store" }],
  "unknown API path": [404, JSON_ANSWER],
  "wrong method on the API": [405, {
    ...JSON_ANSWER,
    "allow": "GET, HEAD, OPTIONS",
  }],
  "wrong method on a page": [405, {
    ...JSON_ANSWER,
    "allow": "GET, HEAD",
  }],
  "links with the store down": [503, JSON_ANSWER],
  "static file": [200, {
    ...CORS,
    "cache-control": "no-cache",
    "content-type": "image/svg+xml; charset=utf-8",
    "etag": 'W/"<version>"',
    "vary": "Accept-Encoding",
    "x-content-type-options": "nosniff",
    "x-request-id": "<fresh>",
  }],
  "static file unchanged": [304, {
    ...CORS,
    "cache-control": "no-cache",
    "content-type": "image/svg+xml; charset=utf-8",
    "etag": 'W/"<version>"',
    "vary": "Accept-Encoding",
    "x-content-type-options": "nosniff",
    "x-request-id": "<fresh>",
  }],
  "metrics": [200, {
    ...CORS,
    "cache-control": "no-store",
    "content-type": "text/plain; version=0.0.4; charset=utf-8",
    "vary": "Accept-Encoding",
    "x-content-type-options": "nosniff",
    "x-request-id": "<fresh>",
  }],
  "export CSV": [200, {
    ...CORS,
    "cache-control": "no-store",
    "content-disposition": 'attachment; filename="links.csv"',
    "content-type": "text/csv; charset=utf-8",
    "ratelimit-limit": "20",
    "ratelimit-remaining": "19",
    "ratelimit-reset": "60",
    "vary": "Accept-Encoding",
    "x-content-type-options": "nosniff",
    "x-request-id": "<fresh>",
  }],
  "QR code": [200, {
    ...CORS,
    "cache-control": "public, max-age=86400",
    "content-security-policy": "default-src 'none'",
    "content-type": "image/svg+xml",
    "vary": "Accept-Encoding",
    "x-content-type-options": "nosniff",
    "x-request-id": "<fresh>",
  }],
  "preflight": [204, {
    ...CORS,
    "access-control-allow-headers": "Content-Type",
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-max-age": "86400",
    "x-request-id": "<fresh>",
  }],
  "preflight bare": [204, {
    ...CORS,
    "access-control-allow-headers": "Content-Type",
    "access-control-allow-methods": "GET, HEAD, DELETE, POST, OPTIONS",
    "access-control-max-age": "86400",
    "x-request-id": "<fresh>",
  }],
  "OPTIONS on an unknown API path": [404, JSON_ANSWER],
  "OPTIONS on the home page": [405, {
    ...JSON_ANSWER,
    "allow": "GET, HEAD",
  }],
  "OPTIONS on a live link": [405, {
    ...JSON_ANSWER,
    "allow": "GET, HEAD, POST",
  }],
  "OPTIONS on a free name": [404, { ...PAGE_ANSWER, "cache-control": "no-store" }],
  "id with a dot": [200, {
    ...JSON_ANSWER,
    "x-request-id": "abc.def",
  }],
  "id with an equals sign": [200, JSON_ANSWER],
  "id of 64 characters": [200, {
    ...JSON_ANSWER,
    "x-request-id": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  }],
  "id of 65 characters": [200, JSON_ANSWER],
  "id with a space": [200, JSON_ANSWER],
  "bulk 1": [400, {
    ...JSON_ANSWER,
    "ratelimit-limit": "5",
    "ratelimit-remaining": "4",
    "ratelimit-reset": "60",
  }],
  "bulk 2": [400, {
    ...JSON_ANSWER,
    "ratelimit-limit": "5",
    "ratelimit-remaining": "3",
    "ratelimit-reset": "60",
  }],
  "bulk 3": [400, {
    ...JSON_ANSWER,
    "ratelimit-limit": "5",
    "ratelimit-remaining": "2",
    "ratelimit-reset": "60",
  }],
  "bulk 4": [400, {
    ...JSON_ANSWER,
    "ratelimit-limit": "5",
    "ratelimit-remaining": "1",
    "ratelimit-reset": "60",
  }],
  "bulk 5": [400, {
    ...JSON_ANSWER,
    "ratelimit-limit": "5",
    "ratelimit-remaining": "0",
    "ratelimit-reset": "60",
  }],
  "bulk over the limit": [429, {
    ...JSON_ANSWER,
    "ratelimit-limit": "5",
    "ratelimit-remaining": "0",
    "ratelimit-reset": "60",
    "retry-after": "60",
  }],
};

/** The headers of `res`, sorted, with what changes from run to run replaced by its shape. */
function headerSet(res: Response): Record<string, string> {
  const set: Record<string, string> = {};
  for (const [name, value] of res.headers) {
    if (name === "date" || name === "content-length") continue;
    if (name === "x-request-id" && FRESH_ID.test(value)) set[name] = "<fresh>";
    else if (name === "etag") set[name] = value.replace(/"[^"]*"/, '"<version>"');
    else if (name === "set-cookie") set[name] = value.replace(/=[^;]+;/, "=<token>;");
    else set[name] = value;
  }
  return set;
}

Deno.test("every answer of the edge carries exactly its pinned headers", async () => {
  const lines: LogLine[] = [];
  const faults: Faults = { commits: 0, down: false };
  await using t = await testApp({
    env: { LOG_REDIRECTS: "1" },
    log: (line) => lines.push(line),
    faults,
  });
  const actual: Record<string, [number, Record<string, string>]> = {};
  for (const [name, path, init] of ROWS) {
    const before = lines.length;
    faults.down = name.endsWith("with the store down");
    const res = await t.request(path, init);
    await res.body?.cancel();
    actual[name] = [res.status, headerSet(res)];
    // The access log names the same id the answer sends (a redirect sends none).
    const logged = lines.slice(before).find((line) => line.msg === "request");
    assert(logged !== undefined, name);
    const sent = res.headers.get("x-request-id");
    if (sent !== null) assertEquals(logged.requestId, sent, name);
    else assert(/^[A-Za-z0-9._-]{1,64}$/.test(String(logged.requestId)), name);
  }
  for (const [name] of ROWS) assertEquals(actual[name], EXPECTED[name], name);
});
