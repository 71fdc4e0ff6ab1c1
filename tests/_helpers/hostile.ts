/**
 * Hostile requests for the malformed-input battery: every route the app mounts, every method,
 * with wrong types, missing and extra fields, huge and empty strings, control and unicode
 * characters (lone surrogates, NUL, direction marks), bad JSON, wrong content types, odd query
 * strings and odd paths. Generated with fast-check from a seed, so a run can be replayed.
 * @module
 */
import fc from "fast-check";
import type { Hono } from "hono";
import type { AppEnv } from "../../routes/_lib/env.ts";

/** One mounted operation: a method on a route pattern, and the fields it reads. */
export interface Endpoint {
  method: string;
  /** The route pattern, e.g. `/api/create`, `/:slug`, `/static/*`. */
  path: string;
  /** Query parameters the API document gives it, each with its example value (or `""`). */
  query: Record<string, string>;
  /** The body the API document gives as its example, or `{}`. */
  example: Record<string, unknown>;
  /** Body field names the API document gives it. */
  fields: string[];
}

/** A request to send: what is on the wire, and who sends it. */
export interface HostileCase {
  /** The endpoint it was made for, as `METHOD /pattern`, or `odd path`. */
  target: string;
  method: string;
  /** Path and query exactly as sent, escapes (good and bad) included. */
  path: string;
  headers: [string, string][];
  body: string | Uint8Array<ArrayBuffer> | FormData | null;
  /** The client address it comes from. */
  client: string;
}

/** What {@linkcode hostileCases} needs to know of the app under test. */
export interface HostileContext {
  endpoints: Endpoint[];
  /** Slugs of links the battery may use, change and remove. */
  slugs: string[];
  /** Client addresses shared by many cases, so rate limits are reached too. */
  sharedClients: string[];
}

/** Methods a client may send besides the ones a route answers (fetch forbids CONNECT, TRACE). */
export const EXTRA_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PURGE"];

/** The query parameters the pages read, which the API document does not list (docs/api.md, Pages). */
const PAGE_QUERIES: Readonly<Record<string, Record<string, string>>> = {
  "GET /": { slug: "", made: "", bulk: "" },
  "GET /links": { q: "", removed: "", cursor: "" },
};

/**
 * Every operation the app mounts, from `app.routes` (pages and `/:slug` included; `ALL`
 * middleware left out, `/static/*` kept as a GET), with the query and body field names the
 * app's own OpenAPI document gives each, and the pages' queries.
 */
export function mountedEndpoints(app: Hono<AppEnv>, document: OpenApiLike): Endpoint[] {
  const seen = new Map<string, Endpoint>();
  for (const route of app.routes) {
    const isStatic = route.method === "ALL" && route.path === "/static/*";
    if (route.method === "ALL" && !isStatic) continue;
    const method = isStatic ? "GET" : route.method;
    const key = `${method} ${route.path}`;
    if (seen.has(key)) continue;
    const operation = document.paths[route.path.replace(":slug", "{slug}")]?.[
      method.toLowerCase()
    ];
    const query = {
      ...PAGE_QUERIES[key],
      ...Object.fromEntries(
        (operation?.parameters ?? []).filter((p) => p.in === "query")
          .map((p) => [p.name, typeof p.example === "string" ? p.example : ""]),
      ),
    };
    const body = operation?.requestBody?.content?.["application/json"];
    const example = typeof body?.example === "object" && body.example !== null
      ? body.example as Record<string, unknown>
      : {};
    const fields = Object.keys(body?.schema?.properties ?? {});
    seen.set(key, { method, path: route.path, query, example, fields });
  }
  return [...seen.values()];
}

/** The parts of an OpenAPI document the tests read. */
export interface OpenApiLike {
  paths: Record<
    string,
    Record<string, {
      parameters?: { in: string; name: string; example?: unknown }[];
      requestBody?: {
        content?: Record<
          string,
          { schema?: { properties?: Record<string, unknown> }; example?: unknown }
        >;
      };
      responses?: Record<string, unknown>;
    }>
  >;
}

// Characters that break parsers, logs, terminals and encoders.
const NASTY_CHARS = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u00ff",
  "\u200b",
  "\u200e",
  "\u200f",
  "\u202a",
  "\u202e",
  "\u2028",
  "\u2066",
  "\ufeff",
  "\ufffd",
  "\uffff",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\ud83d\ude00",
  "e\u0301",
  "\u0130",
  "ß",
  "ﷺ",
  "%",
  "%zz",
  "%00",
  "%2F",
  "%E0%A4%A",
  "+",
  "&",
  "=",
  "?",
  "#",
  "/",
  "\\",
  "..",
  '"',
  "'",
  "`",
  "<",
  ">",
  "{",
  "}",
  "[",
  "]",
  "$",
  ";",
  ",",
  " ",
];

const nastyChar = fc.constantFrom(...NASTY_CHARS);

// Strings chosen to look like something: numbers, keywords, injections, addresses, slugs.
const LOADED_STRINGS = [
  "",
  " ",
  "   \t  ",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "1e309",
  "NaN",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "<script>alert(1)</script>",
  "'; DROP TABLE links; --",
  "{{7*7}}",
  "${7*7}",
  "../../../../etc/passwd",
  "..%2f..%2fdeno.json",
  "javascript:alert(1)",
  "data:text/html,<b>x</b>",
  "http://",
  "https://",
  "://",
  "http://localhost/",
  "http://127.0.0.1:8000/x",
  "http://2130706433/",
  "http://[::1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://169.254.169.254/latest/meta-data/",
  "http://sho.rt/loop",
  "https://www.sho.rt/x",
  "https://user:pw@example.com/",
  "ftp://example.com/",
  "example.com",
  "example.com:8080",
  "https://example.com/ok",
  "https://exa mple.com/",
  "https://xn--nxasmq6b.example/",
  "https://例え.テスト/",
  "docs",
  "API",
  "Stats",
  "a",
  "ab",
  "-lead",
  "_lead",
  "has space",
  "x".repeat(48),
  "x".repeat(49),
  "sweep",
  "csv",
  "JSON",
  "yes",
];

/** A string that is hostile in some way: nasty characters, loaded words, or very long. */
export function hostileString(slugs: string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: nastyChar, maxLength: 12 }) },
    {
      weight: 3,
      arbitrary: fc.string({ unit: fc.oneof(nastyChar, fc.string({ maxLength: 1 })) }),
    },
    { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
    { weight: 4, arbitrary: fc.constantFrom(...LOADED_STRINGS) },
    ...(slugs.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...slugs) }] : []),
    { weight: 1, arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }) },
    {
      weight: 1,
      arbitrary: fc.tuple(nastyChar, fc.integer({ min: 100, max: 70_000 }))
        .map(([char, count]) => char.repeat(count)),
    },
  );
}

/** Any JSON-ish value, hostile strings and odd numbers included, a few levels deep. */
export function hostileValue(slugs: string[] = []): fc.Arbitrary<unknown> {
  const text = hostileString(slugs);
  const leaf = fc.oneof(
    { weight: 4, arbitrary: text },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        0,
        -0,
        -1,
        1.5,
        1e308,
        -1e308,
        Number.MAX_SAFE_INTEGER + 2,
        true,
        false,
        null,
      ),
    },
    { weight: 1, arbitrary: fc.double() },
  );
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      { weight: 6, arbitrary: leaf },
      { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.dictionary(text, tie("value"), { maxKeys: 4 }) },
    ),
  }));
  return value;
}

const ABSENT = Symbol("absent");

/**
 * A visit limit: whole numbers in and out of bounds, fractions, numbers in strings, `null`, odd
 * numbers JSON can carry, or any hostile value.
 */
function visitLimit(value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.integer({ min: -3, max: 12_000 }),
    fc.constantFrom(0, 1, 10_000, 10_001, 1.5, -0, 1e308, -1e308, 2 ** 53, "3", "", " 3", null),
    value,
  );
}

/**
 * A body object for `endpoint`: each documented field left out, taken from the document's
 * example, or hostile; plus extra keys.
 */
function hostileObject(endpoint: Endpoint, slugs: string[]) {
  const known = endpoint.fields.length > 0
    ? endpoint.fields
    : ["url", "slug", "title", "note", "pass", "urls", "confirm"];
  const fieldValue = (name: string): fc.Arbitrary<unknown> => {
    const value = hostileValue(slugs);
    if (name === "urls") {
      const row = fc.oneof(
        value,
        fc.record({ url: value, slug: value, maxVisits: visitLimit(value) }, { requiredKeys: [] }),
      );
      return fc.oneof(fc.array(row, { maxLength: 12 }), value);
    }
    // Fresh names too, so some creates and bulk rows go through and change what is stored.
    if (name === "slug") {
      return fc.oneof(value, fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{2,20}$/));
    }
    if (name === "maxVisits") return visitLimit(value);
    // A password only now and then, and then mostly a bad one: each good one costs a hash.
    if (name === "pass") {
      return fc.oneof({ weight: 6, arbitrary: fc.constantFrom("", null, 7, [], {}) }, {
        weight: 1,
        arbitrary: value,
      });
    }
    return value;
  };
  const field = (name: string) =>
    fc.oneof(
      { weight: 1, arbitrary: fc.constant<unknown>(ABSENT) },
      ...(name in endpoint.example
        ? [{ weight: 4, arbitrary: fc.constant(endpoint.example[name]) }]
        : []),
      { weight: 3, arbitrary: fieldValue(name) },
    ).map((value) => [name, value] as const);
  const extras = fc.dictionary(hostileString(), hostileValue(slugs), { maxKeys: 3 });
  const anyFields = fc.tuple(fc.tuple(...known.map(field)), extras).map(([given, extra]) => {
    const object: Record<string, unknown> = { ...extra };
    for (const [name, value] of given) if (value !== ABSENT) object[name] = value;
    return object;
  });
  // The document's example with one field changed: the others stay good, so the change is what
  // the route has to cope with. Its slug is a fresh name or one we know.
  const slug = fc.oneof(
    fc.constantFrom(...slugs),
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_-]{2,20}$/),
  );
  const oneChanged = fc.tuple(fc.constantFrom(...known), fc.boolean(), slug, extras)
    .chain(([name, drop, name2, extra]) =>
      fieldValue(name).map((value) => {
        const object: Record<string, unknown> = { ...endpoint.example, ...extra };
        if ("slug" in object) object.slug = name2;
        if (drop) delete object[name];
        else object[name] = value;
        return object;
      })
    );
  return fc.oneof(anyFields, oneChanged);
}

// Text that is not the JSON it claims to be, or JSON no schema expects.
const BAD_JSON = [
  "{",
  "}",
  "[",
  '{"url":',
  '{"url": "example.com",}',
  "{url: 'example.com'}",
  "{'url': 'example.com'}",
  "nul",
  "NaN",
  "Infinity",
  "undefined",
  "\ufeff{}",
  '{"url":"\\ud800"}',
  '{"url":"\\u0000"}',
  '{"__proto__": {"polluted": true}, "url": "example.com"}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"url": "a", "url": "b"}',
  "1",
  "-0",
  "true",
  "null",
  '""',
  "[]",
  '["example.com"]',
  '"example.com"',
  "{}",
  "\u0000",
  "\n\n\n",
  "[".repeat(20_000) + "]".repeat(20_000),
  '{"a":'.repeat(5_000) + "1" + "}".repeat(5_000),
  '{"urls":' + "[".repeat(10_000) + "]".repeat(10_000) + "}",
  "x".repeat(70_000),
];

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "APPLICATION/JSON",
  "text/plain",
  "text/html",
  "application/xml",
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=iso-8859-1",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=XyZ",
  "application/octet-stream",
  "*/*",
  "json",
  ";;;",
  "\u00ff/\u00fe",
];

const ACCEPTS = [
  "application/json",
  "text/html",
  "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "*/*",
  "image/webp",
  "text/html;q=0, application/json",
  "\u00e9",
];

/** Header values a client can send: bytes 0x20 to 0xFF and tab, nothing else. */
function headerValue(text: string): string {
  return text.replace(/[^\t\x20-\x7e\x80-\xff]/g, "").trim();
}

function formEncoded(object: Record<string, unknown>): string {
  const pairs = Object.entries(object).map(([key, value]) =>
    `${safeEncode(key)}=${safeEncode(typeof value === "string" ? value : JSON.stringify(value))}`
  );
  return pairs.join("&");
}

/** `encodeURIComponent` that does not throw on a lone surrogate (it is sent as U+FFFD). */
export function safeEncode(text: string | undefined): string {
  return encodeURIComponent((text ?? "").toWellFormed());
}

const RAW_FORMS = [
  "url=%zz&slug=%",
  "url=example.com&url=example.org&slug=a&slug=b",
  "=&=&&&",
  "url",
  "url==example.com",
  "urls=example.com%0Aexample.org%0A%0A%0Ahttp%3A%2F%2Flocalhost",
  "urls=" + "example.com%0A".repeat(11),
  "url=%E0%A4%A&title=%C0%AF",
  "url=" + "%41".repeat(20_000),
  "a[b][c]=1&url[]=x",
  "slug=fixture-open&confirm=yes",
];

const RAW_MULTIPART = [
  '--XyZ\r\nContent-Disposition: form-data; name="url"\r\n\r\nexample.com\r\n--XyZ--\r\n',
  '--XyZ\r\nContent-Disposition: form-data; name="url"\r\n\r\nexample.com',
  '--XyZ\r\nContent-Disposition: form-data; name="urls"; filename="a.txt"\r\n' +
  "Content-Type: text/plain\r\n\r\nexample.com\r\n--XyZ--\r\n",
  "--XyZ--",
  "garbage",
  "",
];

function hostileBody(endpoint: Endpoint, slugs: string[]) {
  const object = hostileObject(endpoint, slugs);
  return fc.oneof(
    { weight: 6, arbitrary: object.map((value) => ({ body: JSON.stringify(value), as: "json" })) },
    {
      weight: 2,
      arbitrary: hostileValue(slugs).map((value) => ({
        body: JSON.stringify(value) ?? "",
        as: "json",
      })),
    },
    { weight: 3, arbitrary: fc.constantFrom(...BAD_JSON).map((body) => ({ body, as: "json" })) },
    { weight: 2, arbitrary: object.map((value) => ({ body: formEncoded(value), as: "form" })) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_FORMS).map((body) => ({ body, as: "form" })) },
    {
      weight: 1,
      arbitrary: object.map((value) => {
        const form = new FormData();
        for (const [key, field] of Object.entries(value)) {
          form.append(key, typeof field === "string" ? field : JSON.stringify(field) ?? "");
        }
        return { body: form, as: "multipart" };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...RAW_MULTIPART).map((body) => ({ body, as: "raw-multipart" })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({
        body: Uint8Array.from([0xc3, 0x28, 0xff, 0xfe, ...bytes, 0xe2, 0x82]),
        as: "bytes",
      })),
    },
    { weight: 1, arbitrary: fc.constant({ body: null, as: "none" }) },
  );
}

function contentTypeFor(as: string): fc.Arbitrary<string | null> {
  const any = fc.constantFrom(...CONTENT_TYPES);
  switch (as) {
    case "json":
      return fc.oneof({ weight: 4, arbitrary: fc.constant("application/json") }, {
        weight: 2,
        arbitrary: any,
      }, { weight: 1, arbitrary: fc.constant(null) });
    case "form":
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant("application/x-www-form-urlencoded") },
        { weight: 1, arbitrary: any },
      );
    case "raw-multipart":
      return fc.oneof(
        { weight: 3, arbitrary: fc.constant("multipart/form-data; boundary=XyZ") },
        { weight: 1, arbitrary: any },
      );
    case "multipart":
      return fc.constant(null); // the FormData sets its own boundary
    default:
      return fc.option(any);
  }
}

/** A raw query string (without `?`): known and random keys, repeated, badly escaped, long. */
function hostileQuery(params: Record<string, string>, slugs: string[]): fc.Arbitrary<string> {
  const keys = [...Object.keys(params), "slug", "url", "q", "format", "confirm", "removed"];
  const examples = Object.values(params).filter(Boolean).map(safeEncode);
  const value = fc.oneof(
    ...(examples.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...examples) }] : []),
    { weight: 2, arbitrary: fc.constantFrom(...slugs) },
    { weight: 4, arbitrary: hostileString(slugs).map(safeEncode) },
    { weight: 2, arbitrary: hostileString(slugs) }, // unescaped: the URL parser escapes it
    {
      weight: 2,
      arbitrary: fc.constantFrom("%zz", "%", "%E0%A4%A", "%C0%AF", "%00", "%2", "%%", "+%20+"),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 30_000 }).map((n) => "a".repeat(n)) },
  );
  const pair = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...keys), value) },
    { weight: 1, arbitrary: fc.tuple(hostileString().map(safeEncode), value) },
  ).map(([key, text]) => `${key}=${text}`);
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join("&")) },
    { weight: 1, arbitrary: fc.constantFrom("", "&", "=", "&&==&&", "slug", "slug&slug&slug") },
  );
}

/** A path segment: a slug we know, a word, or something no router expects. */
function hostileSegment(slugs: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...slugs, "docs", "API", "stats", "favicon.ico") },
    { weight: 3, arbitrary: hostileString(slugs).map(safeEncode) },
    { weight: 2, arbitrary: hostileString(slugs) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "%zz",
        "%",
        "%2F",
        "%2e%2e",
        "%00",
        "..",
        ".",
        "",
        "a%2Fb",
        "%252F",
        "x".repeat(5_000),
      ),
    },
  );
}

/** Mangles a route's path the way clients and scanners do. */
function oddPath(path: string): fc.Arbitrary<string> {
  return fc.constantFrom(
    path,
    `${path}/`,
    `/${path}`,
    path.replace(/\//g, "//"),
    path.replace("/", "/./"),
    `${path}/..`,
    `/x/..${path}`,
    `/${path.slice(1).replace(/\//g, "%2F")}`,
    path.toUpperCase(),
    `${path};jsessionid=1`,
    `${path}/${"a".repeat(3_000)}`,
    `${path}%00`,
    `${path}%zz`,
  );
}

const STANDALONE_ODD_PATHS = [
  "/",
  "//",
  "///",
  "/./",
  "/../",
  "/.%2e/",
  "/%2e%2e/%2e%2e/etc/passwd",
  "/api",
  "/api/",
  "/api//create",
  "/api/./create",
  "/api%2Fcreate",
  "/api/create%2F",
  "/static/../deno.json",
  "/static/%2e%2e/deno.json",
  "/static/..%2fdeno.json",
  "/static/%2e%2e%2fdeno.json",
  "/static/",
  "/static",
  "/%zz",
  "/%",
  "/%00",
  "/\u202eevil",
  "/" + "a".repeat(10_000),
  "/" + "a/".repeat(500),
  "/a/b/c",
  "/*",
  "/:slug",
  "/index.html",
  "/.env",
  "/.git/config",
];

function sharedOr(context: HostileContext): fc.Arbitrary<string> {
  return fc.oneof(
    // Each its own /64, as rate limits count an IPv6 client.
    {
      weight: 6,
      arbitrary: fc.nat(0xffffff).map((n) =>
        `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...context.sharedClients) },
  );
}

function hostileHeaders(slugs: string[]): fc.Arbitrary<[string, string][]> {
  const text = hostileString(slugs).map(headerValue);
  return fc.record({
    accept: fc.option(fc.constantFrom(...ACCEPTS)),
    cookie: fc.option(fc.oneof(
      fc.constantFrom(...slugs).map((slug) => `unlock_${slug}=forged.token`),
      text.map((value) => `unlock_x=${value}`),
      fc.constantFrom("=;;;", "unlock_=", `${"c".repeat(4_000)}=1`, "unlock_fixture-open"),
    )),
    userAgent: fc.option(fc.oneof(text, fc.constantFrom("", "Googlebot/2.1", "curl/8"))),
    referer: fc.option(text),
    forwardedFor: fc.option(
      fc.oneof(text, fc.constantFrom("127.0.0.1, 10.0.0.1", ",,,", "::1", "unknown")),
    ),
    requestId: fc.option(text),
    origin: fc.option(fc.constantFrom("https://evil.example", "null", "")),
  }, { requiredKeys: [] }).map((record) => {
    const headers: [string, string][] = [];
    const add = (name: string, value: string | null | undefined) => {
      if (value !== null && value !== undefined) headers.push([name, value]);
    };
    add("accept", record.accept);
    add("cookie", record.cookie);
    add("user-agent", record.userAgent);
    add("referer", record.referer);
    add("x-forwarded-for", record.forwardedFor);
    add("x-request-id", record.requestId);
    add("origin", record.origin);
    return headers;
  });
}

function pathFor(endpoint: Endpoint, slugs: string[]): fc.Arbitrary<string> {
  if (endpoint.path.includes(":slug")) {
    return hostileSegment(slugs).map((segment) => endpoint.path.replace(":slug", segment));
  }
  if (endpoint.path.endsWith("*")) {
    return fc.array(hostileSegment(slugs), { minLength: 1, maxLength: 3 })
      .map((segments) => endpoint.path.replace("*", segments.join("/")));
  }
  return fc.oneof({ weight: 5, arbitrary: fc.constant(endpoint.path) }, {
    weight: 1,
    arbitrary: oddPath(endpoint.path),
  });
}

function caseFor(endpoint: Endpoint, context: HostileContext): fc.Arbitrary<HostileCase> {
  const { slugs } = context;
  return fc.record({
    method: fc.oneof({ weight: 4, arbitrary: fc.constant(endpoint.method) }, {
      weight: 1,
      arbitrary: fc.constantFrom(...EXTRA_METHODS),
    }),
    path: pathFor(endpoint, slugs),
    query: fc.option(hostileQuery(endpoint.query, slugs), { freq: 4 }),
    headers: hostileHeaders(slugs),
    payload: hostileBody(endpoint, slugs).chain((payload) =>
      contentTypeFor(payload.as).map((type) => ({ ...payload, type }))
    ),
    client: sharedOr(context),
  }).map(({ method, path, query, headers, payload, client }) => {
    const hasBody = method !== "GET" && method !== "HEAD" && payload.body !== null;
    const sent: [string, string][] = [...headers];
    if (hasBody && payload.type !== null) sent.push(["content-type", payload.type]);
    return {
      target: `${endpoint.method} ${endpoint.path}`,
      method,
      path: query === null ? path : `${path}?${query}`,
      headers: sent,
      body: hasBody ? payload.body : null,
      client,
    };
  });
}

/** Hostile requests to every endpoint of `context`, and to odd paths nothing mounts. */
export function hostileCases(context: HostileContext): fc.Arbitrary<HostileCase> {
  const odd = fc.record({
    method: fc.constantFrom(...EXTRA_METHODS),
    path: fc.oneof(
      fc.constantFrom(...STANDALONE_ODD_PATHS),
      fc.array(hostileSegment(context.slugs), { minLength: 1, maxLength: 4 })
        .map((segments) => `/${segments.join("/")}`),
    ),
    headers: hostileHeaders(context.slugs),
    client: sharedOr(context),
  }).map(({ method, path, headers, client }): HostileCase => ({
    target: "odd path",
    method,
    path,
    headers,
    body: null,
    client,
  }));
  return fc.oneof(
    ...context.endpoints.map((endpoint) => ({ weight: 3, arbitrary: caseFor(endpoint, context) })),
    { weight: 4, arbitrary: odd },
  );
}

/** The `Request` of a case, sent to `origin`. */
export function toRequest(hostile: HostileCase, origin: string): Request {
  return new Request(`${origin}${hostile.path}`, {
    method: hostile.method,
    headers: hostile.headers,
    body: hostile.body,
  });
}

/** A case in a line or two, for a failure message. */
export function describeCase(hostile: HostileCase): string {
  const body = hostile.body instanceof FormData
    ? `FormData(${[...hostile.body.keys()].join(",")})`
    : hostile.body instanceof Uint8Array
    ? `bytes(${hostile.body.length})`
    : hostile.body;
  const clip = (text: unknown) => {
    const json = JSON.stringify(text) ?? "null";
    return json.length > 300 ? `${json.slice(0, 300)}…(${json.length})` : json;
  };
  return `${hostile.method} ${clip(hostile.path)} from ${hostile.client} [${hostile.target}]` +
    ` headers=${clip(hostile.headers)} body=${clip(body)}`;
}
