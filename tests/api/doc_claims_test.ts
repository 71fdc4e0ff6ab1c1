/**
 * What docs/api.md and the README quote (a status, an error sentence, a header) asked of the
 * running service: each claim names the words the docs say and the request that must answer
 * them. A claim the docs no longer carry fails as surely as an answer that changed.
 * @module
 */
import { assert, assertEquals } from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import type { Faults } from "../_helpers/faults.ts";
import type { LogLine } from "../../lib/log/mod.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";

const read = (path: string) =>
  Deno.readTextFile(new URL(`../../${path}`, import.meta.url)).then((text) =>
    text.replace(/\s+/g, " ")
  );
const DOCS = { api: await read("docs/api.md"), readme: await read("README.md") };

interface Claim {
  /** Where it is quoted, and the words quoted (whitespace as one space). */
  doc: keyof typeof DOCS;
  quote: string;
  /** Asks the service; throws when the answer is not what the quote says. */
  check(t: TestApp, faults: Faults): Promise<void>;
}

/** The answer's JSON `error`, after checking its status. */
async function errorOf(answer: Response, status: number): Promise<string> {
  const body = await answer.json();
  assertEquals(answer.status, status, JSON.stringify(body));
  assertEquals(answer.headers.get("content-type"), "application/json");
  return body.error;
}

const form = (body: string): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body,
});

const CLAIMS: Claim[] = [
  {
    doc: "api",
    quote: "`request body must be JSON, sent with Content-Type: application/json`",
    async check(t) {
      const error = await errorOf(await t.request("/api/sweep", form("confirm=sweep")), 400);
      assertEquals(error, "request body must be JSON, sent with Content-Type: application/json");
    },
  },
  {
    doc: "api",
    quote: "is 400 `request body must be JSON, sent with Content-Type: application/json`",
    async check(t) {
      // The sweep section's form body, quoted a second time.
      const error = await errorOf(await t.request("/api/sweep", form("confirm=sweep")), 400);
      assertEquals(error, "request body must be JSON, sent with Content-Type: application/json");
    },
  },
  {
    doc: "api",
    quote: "400 `request body must be nested at most 32 levels deep`",
    async check(t) {
      const deep = "[".repeat(40) + "]".repeat(40);
      const error = await errorOf(await t.json("/api/create", `{"url":${deep}}`), 400);
      assertEquals(error, "request body must be nested at most 32 levels deep");
    },
  },
  {
    doc: "api",
    quote: "(so 11 `urls` fields are refused with `max 10 links per request`)",
    async check(t) {
      const body = Array.from({ length: 11 }, (_, i) => `urls=example.com/${i}`).join("&");
      assertEquals(
        await errorOf(await t.request("/api/bulk", form(body)), 400),
        "max 10 links per request",
      );
    },
  },
  {
    doc: "api",
    quote: "(`pass must be one string, not a list`)",
    async check(t) {
      const answer = await t.request("/api/create", form("url=example.com&pass=a&pass=b"));
      assertEquals(await errorOf(answer, 400), "pass must be one string, not a list");
    },
  },
  {
    doc: "api",
    quote: "A `url` of `null` is not given either: `url is required`",
    async check(t) {
      assertEquals(
        await errorOf(await t.json("/api/create", { url: null }), 400),
        "url is required",
      );
    },
  },
  {
    doc: "api",
    quote: "one of spaces alone is `url must not be empty`",
    async check(t) {
      const error = await errorOf(await t.json("/api/create", { url: "   " }), 400);
      assertEquals(error, "url must not be empty");
    },
  },
  {
    doc: "api",
    quote: "A body over 64 KiB is refused with 413",
    async check(t) {
      const answer = await t.json("/api/create", {
        url: "example.com",
        note: "x".repeat(65 * 1024),
      });
      assertEquals(answer.status, 413);
      await answer.body?.cancel();
    },
  },
  {
    doc: "api",
    quote:
      "`Access-Control-Expose-Headers: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, " +
      "Retry-After, X-Request-Id, Location`",
    async check(t) {
      const answer = await t.request("/api/version");
      await answer.body?.cancel();
      assertEquals(answer.headers.get("access-control-allow-origin"), "*");
      assertEquals(
        answer.headers.get("access-control-expose-headers"),
        "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id, Location",
      );
    },
  },
  {
    doc: "api",
    quote: "`Access-Control-Allow-Headers: Content-Type` and `Access-Control-Max-Age: 86400`",
    async check(t) {
      const answer = await t.request("/api/create", { method: "OPTIONS" });
      assertEquals(answer.status, 204);
      assertEquals(answer.headers.get("access-control-allow-headers"), "Content-Type");
      assertEquals(answer.headers.get("access-control-max-age"), "86400");
    },
  },
  {
    doc: "api",
    quote: 'Under `/api/`: 404 JSON `{"error": "no such endpoint: GET /api/..."}`',
    async check(t) {
      const error = await errorOf(await t.request("/api/nothing-here"), 404);
      assertEquals(error, "no such endpoint: GET /api/nothing-here");
    },
  },
  {
    doc: "api",
    quote: '| 503 | the store is down: `{"error": "storage is unavailable, try again shortly"}` |',
    async check(t, faults) {
      faults.down = true;
      try {
        const answer = await t.request("/api/unshorten?slug=abcdefg");
        assertEquals(await errorOf(answer, 503), "storage is unavailable, try again shortly");
      } finally {
        faults.down = false;
      }
    },
  },
  {
    doc: "api",
    quote: '403 `{"error": "wrong password"}`',
    async check(t) {
      const made = await t.json("/api/create", {
        url: "example.com/p",
        slug: "claimed",
        pass: "pw",
      });
      assertEquals(made.status, 201);
      const answer = await t.json("/api/unlock", { slug: "claimed", pass: "nope" });
      assertEquals(await errorOf(answer, 403), "wrong password");
    },
  },
  {
    doc: "api",
    quote: "Any other host, port or scheme is 400 `invalid slug`",
    async check(t) {
      const answer = await t.request("/api/unshorten?slug=https://elsewhere.example/abc");
      assertEquals(await errorOf(answer, 400), "invalid slug");
    },
  },
  {
    doc: "api",
    quote: '{ "error": "host \\"printer.local\\" is not a public host name", "reason": "host" }',
    async check(t) {
      const answer = await t.request("/api/preview?url=http://printer.local/");
      assertEquals(answer.status, 400);
      assertEquals(await answer.json(), {
        error: 'host "printer.local" is not a public host name',
        reason: "host",
      });
    },
  },
  {
    doc: "api",
    quote: "`url must not point back to this service`",
    async check(t) {
      const answer = await t.json("/api/create", { url: "http://127.0.0.1:8000/hello" });
      assertEquals(await errorOf(answer, 400), "url must not point back to this service");
    },
  },
  {
    doc: "api",
    quote: "Create, and each bulk row, refuse a destination on a blocked host: 400, " +
      "`destination host is blocked by this service`",
    async check(t) {
      t.deps.blocklist.replace(["blocked.example"]);
      try {
        const answer = await t.json("/api/create", { url: "www.blocked.example" });
        assertEquals(await errorOf(answer, 400), "destination host is blocked by this service");
      } finally {
        t.deps.blocklist.replace([]);
      }
    },
  },
  {
    doc: "api",
    quote: "Unshorten answers 410 `{error, slug, blocked: true}`",
    async check(t) {
      assertEquals(
        (await t.json("/api/create", { url: "gone.example", slug: "gone" })).status,
        201,
      );
      t.deps.blocklist.replace(["gone.example"]);
      try {
        const answer = await t.request("/api/unshorten?slug=gone");
        assertEquals(answer.status, 410);
        const body = await answer.json();
        assertEquals(Object.keys(body).sort(), ["blocked", "error", "slug"]);
        assertEquals([body.slug, body.blocked], ["gone", true]);
        assertEquals((await t.request("/gone")).status, 410);
      } finally {
        t.deps.blocklist.replace([]);
      }
    },
  },
  {
    doc: "api",
    quote:
      "a page such as `/docs` goes out at under a quarter of its size, smaller with `br` than " +
      "with gzip",
    async check(t) {
      const size = async (encoding: string) => {
        const answer = await t.request("/docs", { headers: { "Accept-Encoding": encoding } });
        return (await answer.arrayBuffer()).byteLength;
      };
      const [plain, gzip, br] = [await size("identity"), await size("gzip"), await size("br")];
      assert(gzip < plain / 4, `${gzip} of ${plain} gzipped`);
      assert(br < gzip, `br ${br}, gzip ${gzip}`);
    },
  },
  {
    doc: "api",
    quote: "One stylesheet serves every page (`/static/style.css`, under 5 KB gzipped)",
    async check(t) {
      const answer = await t.request("/static/style.css", {
        headers: { "Accept-Encoding": "gzip" },
      });
      assertEquals([answer.status, answer.headers.get("content-encoding")], [200, "gzip"]);
      const bytes = (await answer.arrayBuffer()).byteLength;
      assert(bytes < 5_000, `${bytes} bytes gzipped`);
    },
  },
  {
    doc: "api",
    quote:
      "| `click flush failed, will retry` | `error` | `waiting` (clicks), `figuresWaiting` (links), " +
      "`error` (a cause) |",
    async check() {
      const faults: Faults = { commits: 0, down: false };
      const lines: LogLine[] = [];
      await using t = await testApp({ faults, log: (line) => lines.push(line) });
      assertEquals(
        (await t.json("/api/create", { url: "example.com/f", slug: "flushed" })).status,
        201,
      );
      assertEquals(
        (await t.request("/flushed", { headers: { "User-Agent": DESKTOP_UA } })).status,
        302,
      );
      faults.down = true;
      for (let i = 0; i < 3; i++) await t.deps.clicks.flush();
      faults.down = false;
      await t.deps.clicks.flush();
      const said = lines.filter((line) => line.msg.startsWith("click flush"));
      assertEquals(said.map((line) => [line.msg, line.level]), [
        ["click flush failed, will retry", "error"],
        ["click flush works again", "info"],
      ]);
      assertEquals([said[0]!.waiting, said[0]!.figuresWaiting], [1, 0]);
      assert(
        DOCS.api.includes("| `click flush works again` | `info` | `failedForMs`, `failures` |"),
      );
    },
  },
  {
    doc: "readme",
    quote: "Booleans (`TRUST_PROXY`, `LOG_REDIRECTS`) take `1`, `0`, `true` or `false`.",
    async check() {
      const { loadConfig } = await import("../../fresh.config.ts");
      for (const value of ["1", "0", "true", "false"]) {
        loadConfig({ TRUST_PROXY: value, LOG_REDIRECTS: value });
      }
    },
  },
  {
    doc: "api",
    quote: "`GET /<slug>`: 302 with `Location`, `Referrer-Policy: unsafe-url` and " +
      "`Cache-Control: no-store`",
    async check(t) {
      assertEquals(
        (await t.json("/api/create", { url: "example.com/r", slug: "went" })).status,
        201,
      );
      const answer = await t.request("/went");
      assertEquals(answer.status, 302);
      assertEquals(answer.headers.get("location"), "https://example.com/r");
      assertEquals(answer.headers.get("referrer-policy"), "unsafe-url");
      assertEquals(answer.headers.get("cache-control"), "no-store");
    },
  },
];

Deno.test("every status, sentence and header the docs quote is what the service answers", async (t) => {
  const faults: Faults = { commits: 0, down: false };
  await using app = await testApp({ faults });
  for (const claim of CLAIMS) {
    await t.step(claim.quote, async () => {
      assert(
        DOCS[claim.doc].includes(claim.quote),
        `${claim.doc === "api" ? "docs/api.md" : "README.md"} no longer says: ${claim.quote}`,
      );
      await claim.check(app, faults);
    });
  }
});
