import { assert, assertEquals } from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import {
  bytesOf,
  closedPort,
  type FakeAnswer,
  type FakeNetwork,
  fakeNetwork,
  openTrap,
  PUBLIC_ADDRESS,
  rawServer,
  type Trap,
  untilClosed,
  writeAll,
} from "../_helpers/network.ts";
import type { PreviewOptions } from "../../lib/preview/mod.ts";

/** Where `secure.example` lives: a TLS server with a certificate from the test CA. */
const SECURE_ADDRESS = "93.184.216.35";
const FIXTURES = new URL("../_fixtures/tls/", import.meta.url);
const CA = Deno.readTextFileSync(new URL("ca.pem", FIXTURES));
const CERT = Deno.readTextFileSync(new URL("secure_example.pem", FIXTURES));
const KEY = Deno.readTextFileSync(new URL("secure_example.key", FIXTURES));
const HTML = "text/html; charset=utf-8";

/** Names that resolve inward, or partly inward. */
const INNER_NAMES: Record<string, string[]> = {
  "inner.example": ["10.0.0.5"],
  "loop.example": ["127.0.0.1"],
  "v6loop.example": ["::1"],
  "mixed.example": [PUBLIC_ADDRESS, "10.0.0.1"],
  "mixed6.example": [PUBLIC_ADDRESS, "fd00::1"],
  "metadata.example": ["169.254.169.254"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "cgnat.example": ["100.100.100.200"],
};

const FULL_PAGE = `<!doctype html><html><head>
  <title>HTML title</title>
  <meta name="description" content="HTML description">
  <meta name="twitter:title" content="Twitter title">
  <meta name="twitter:description" content="Twitter description">
  <meta name="twitter:image" content="/twitter.png">
  <meta property="og:title" content="  OG
     title &amp; more ">
  <meta property="og:description" content="OG description">
  <meta property="og:site_name" content="Example Site">
  <meta property="og:image" content="../img/og.png?size=large">
  <link rel="icon canonical" href="/canonical-page">
</head><body><title>Body title</title><meta property="og:title" content="Body"></body></html>`;

/** The pages of `site.example`, and what they were asked. */
function servePages() {
  const requests: { path: string; headers: Headers }[] = [];
  const html = (body: BodyInit, init: ResponseInit = {}) =>
    new Response(body, { ...init, headers: { "content-type": HTML, ...init.headers } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    const path = url.pathname;
    requests.push({ path: `${path}${url.search}`, headers: request.headers });
    const step = /^\/(loop|count)\/(\d+)$/.exec(path);
    if (path === "/page") return html(FULL_PAGE);
    if (path === "/to") {
      const status = Number(url.searchParams.get("status") ?? 302);
      return new Response(null, {
        status,
        headers: { location: url.searchParams.get("l") ?? "" },
      });
    }
    if (step?.[1] === "loop") {
      return Response.redirect(new URL(`/loop/${Number(step[2]) + 1}`, url), 302);
    }
    if (step?.[1] === "count") {
      const left = Number(step[2]);
      if (left === 0) return html("<title>Arrived</title>");
      return new Response(null, { status: 301, headers: { location: `/count/${left - 1}` } });
    }
    if (path === "/echo") {
      const h = request.headers;
      const said = [h.get("host"), h.get("user-agent"), h.get("accept-encoding")].join(" | ");
      return html(`<title>${said}</title>`);
    }
    if (path === "/type") {
      return new Response("<title>Not HTML</title>", {
        headers: { "content-type": url.searchParams.get("t") ?? "" },
      });
    }
    if (path === "/status") {
      return html("<title>Error page</title>", { status: Number(url.searchParams.get("s")) });
    }
    if (path === "/only-html") {
      return html(`<head><title>Just a title</title>
        <meta name="description" content="Plain description">
        <link rel="canonical" href="https://site.example/canonical">`);
    }
    if (path === "/twitter") {
      return html(`<head><title>HTML</title><meta name="twitter:title" content="Tweet">
        <meta name="twitter:image:src" content="//cdn.example/t.png"></head>`);
    }
    if (path === "/base") {
      return html(`<head><base href="https://cdn.example/assets/">
        <meta property="og:image" content="pic.png"><meta property="og:url" content="page">`);
    }
    if (path === "/bad-urls") {
      return html(`<head><meta property="og:image" content="javascript:alert(1)">
        <meta name="twitter:image" content="data:image/png;base64,AAAA">
        <link rel="canonical" href="ftp://site.example/x"></head>`);
    }
    if (path === "/empty") return html("<html><head></head><body>Nothing here</body></html>");
    if (path === "/long") {
      return html(
        `<title>${"word ".repeat(500)}</title><meta name=description content="${
          "é".repeat(1500)
        }">`,
      );
    }
    if (path === "/huge") {
      const filler = "<p>filler</p>".repeat(80_000); // about 1 MiB
      return html(`<head><meta property="og:title" content="Huge"></head><body>${filler}`);
    }
    if (path === "/late") {
      const filler = `<meta name="filler" content="${"x".repeat(1000)}">`.repeat(600);
      return html(`<head>${filler}<meta property="og:title" content="Too late"></head>`);
    }
    if (path === "/endless") return html(endlessHead());
    if (path === "/chunked") {
      const parts = [
        "<head><title>Chun",
        "ked café</title>",
        "<meta property=og:site_name ",
        "content=Chunks>",
      ]
        .map((part) => new TextEncoder().encode(part));
      return html(ReadableStream.from(parts));
    }
    if (path === "/cp1252-header") {
      return html(bytesOf("<title>Caf\xe9 \x93quoted\x94</title>"), {
        headers: { "content-type": "text/html; charset=windows-1252" },
      });
    }
    if (path === "/latin1-meta") {
      return html(bytesOf('<head><meta charset="iso-8859-1"><title>Gr\xfc\xdfe</title>'), {
        headers: { "content-type": "text/html" },
      });
    }
    if (path === "/sjis-http-equiv") {
      const start = bytesOf(
        '<head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>',
      );
      const title = new Uint8Array([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // 日本語
      return html(new Uint8Array([...start, ...title, ...bytesOf("</title></head>")]), {
        headers: { "content-type": "text/html" },
      });
    }
    if (path === "/header-wins") {
      return html('<head><meta charset="windows-1252"><title>Café</title>', {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }
    if (path === "/xhtml") {
      return new Response("<head><title>XHTML</title></head>", {
        headers: { "content-type": "application/xhtml+xml" },
      });
    }
    return new Response("not found", { status: 404 });
  });
  return {
    port: server.addr.port,
    requests,
    paths: () => requests.map((request) => request.path),
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** A head that never ends, streamed for as long as anyone reads it. */
function endlessHead(): ReadableStream<Uint8Array> {
  const filler = new TextEncoder().encode(`<meta name="x" content="${"y".repeat(16_000)}">`);
  let first = true;
  return new ReadableStream({
    pull(controller) {
      if (first) {
        first = false;
        controller.enqueue(
          new TextEncoder().encode('<head><meta property="og:title" content="Endless">'),
        );
      }
      controller.enqueue(filler);
    },
  });
}

/** `secure.example` over TLS. */
function serveSecure() {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, cert: CERT, key: KEY, onListen() {} },
    () =>
      new Response('<head><meta property="og:title" content="Secure page"></head>', {
        headers: { "content-type": HTML },
      }),
  );
  return { port: server.addr.port, [Symbol.asyncDispose]: () => server.shutdown() };
}

/** Everything a preview test runs against. */
interface World extends AsyncDisposable {
  t: TestApp;
  net: FakeNetwork;
  trap: Trap;
  pages: ReturnType<typeof servePages>;
  /** Names the fake resolver knows; tests may add. */
  names: Record<string, FakeAnswer>;
  /** Addresses and the local ports they reach; tests may add. */
  routes: Record<string, number>;
  /** `GET /api/preview?url=<url>`. */
  preview(url: string, client?: string): Promise<Response>;
}

async function world(
  options: PreviewOptions = {},
  env: Record<string, string> = {},
): Promise<World> {
  const trap = openTrap();
  const pages = servePages();
  const secure = serveSecure();
  const names: World["names"] = {
    "site.example": [PUBLIC_ADDRESS],
    "other.example": [PUBLIC_ADDRESS],
    "secure.example": [SECURE_ADDRESS],
    "wrong.example": [SECURE_ADDRESS],
    ...INNER_NAMES,
  };
  const routes = { [PUBLIC_ADDRESS]: pages.port, [SECURE_ADDRESS]: secure.port };
  const net = fakeNetwork({ names, routes, fallback: trap.port });
  const t = await testApp({
    preview: { resolve: net.resolve, dial: net.dial, caCerts: [CA], ...options },
    env,
  });
  return {
    t,
    net,
    trap,
    pages,
    names,
    routes,
    preview: (url, client) =>
      t.request(`/api/preview?url=${encodeURIComponent(url)}`, undefined, client),
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await pages[Symbol.asyncDispose]();
      await secure[Symbol.asyncDispose]();
      await trap[Symbol.asyncDispose]();
    },
  };
}

function empty(url: string) {
  return {
    url,
    host: new URL(url).hostname,
    title: "",
    description: "",
    siteName: "",
    image: "",
    canonical: "",
  };
}

// --- Refusals -----------------------------------------------------------------------------

const trapPortPlaceholder = "TRAP";

/** Every way of pointing a preview inward, and the reason it must be refused with. */
const SSRF_CASES: [string, "host" | "private" | "port"][] = [
  // Loopback and other inner IPv4 in every spelling `new URL` accepts.
  ["http://127.0.0.1/", "private"],
  ["http://2130706433/", "private"],
  ["http://0x7f.1/", "private"],
  ["http://0x7f000001/", "private"],
  ["http://0177.0.0.1/", "private"],
  ["http://127.1/", "private"],
  ["http://127.0.0.1./", "private"],
  ["http://127.255.255.254/", "private"],
  ["127.0.0.1", "private"],
  ["http://0.0.0.0/", "private"],
  ["http://0/", "private"],
  ["http://10.0.0.1/", "private"],
  ["http://012.0.0.1/", "private"],
  ["http://172.16.0.1/", "private"],
  ["http://172.31.255.255/", "private"],
  ["http://192.168.1.1/", "private"],
  ["http://0xc0a80101/", "private"],
  ["http://169.254.169.254/latest/meta-data/", "private"],
  ["http://168.63.129.16/machine?comp=goalstate", "private"],
  ["http://[::ffff:168.63.129.16]/", "private"],
  ["http://100.64.0.1/", "private"],
  ["http://224.0.0.1/", "private"],
  ["http://255.255.255.255/", "private"],
  ["http://192.0.2.1/", "private"],
  ["http://198.18.0.1/", "private"],
  ["http://240.0.0.1/", "private"],
  // IPv6, including the forms that carry an IPv4 address inside.
  ["http://[::1]/", "private"],
  ["http://[::]/", "private"],
  ["http://[0:0:0:0:0:0:0:1]/", "private"],
  ["https://[::1]:443/", "private"],
  ["http://[::ffff:127.0.0.1]/", "private"],
  ["http://[::ffff:7f00:1]/", "private"],
  ["http://[::ffff:10.0.0.1]/", "private"],
  ["http://[::ffff:169.254.169.254]/", "private"],
  ["http://[::127.0.0.1]/", "private"],
  ["http://[::8.8.8.8]/", "private"],
  ["http://[64:ff9b::10.0.0.1]/", "private"],
  ["http://[64:ff9b::127.0.0.1]/", "private"],
  ["http://[fe80::1]/", "private"],
  ["http://[fc00::1]/", "private"],
  ["http://[fd12:3456::1]/", "private"],
  ["http://[ff02::1]/", "private"],
  ["http://[2002:7f00:1::]/", "private"],
  ["http://[2001:0:4136:e378::1]/", "private"],
  ["http://[2001:db8::1]/", "private"],
  // Names that are not public hosts, refused before any lookup.
  ["http://localhost/", "host"],
  ["http://LOCALHOST./", "host"],
  ["http://foo.localhost/", "host"],
  ["http://intranet/", "host"],
  ["intranet", "host"],
  ["http://printer.local/", "host"],
  ["http://db.internal/", "host"],
  ["http://router.home.arpa/", "host"],
  ["http://x.test/", "host"],
  ["http://x.invalid/", "host"],
  ["http://sho.rt/api/links", "host"],
  ["https://www.sho.rt/", "host"],
  ["http://localhost:8080/", "host"],
  // Credentials, which the preview would never send.
  ["http://user:pass@site.example/", "host"],
  ["http://user@site.example/", "host"],
  ["https://:secret@127.0.0.1/", "host"],
  // Names that resolve inward, wholly or in part.
  ["http://inner.example/", "private"],
  ["http://loop.example/", "private"],
  ["http://v6loop.example/", "private"],
  ["http://mixed.example/", "private"],
  ["http://mixed6.example/", "private"],
  ["http://metadata.example/", "private"],
  ["http://mapped.example/", "private"],
  ["http://cgnat.example/", "private"],
  // Odd ports.
  ["http://site.example:8080/", "port"],
  ["http://site.example:22/", "port"],
  ["http://site.example:0/", "port"],
  ["https://site.example:8443/", "port"],
  [`http://site.example:${trapPortPlaceholder}/`, "port"],
  [`http://${PUBLIC_ADDRESS}:6379/`, "port"],
  [`http://127.0.0.1:${trapPortPlaceholder}/`, "private"],
  // Redirects that point inward or to odd ports, checked hop by hop.
  [redirect("http://127.0.0.1/"), "private"],
  [redirect("http://2130706433/"), "private"],
  [redirect("http://[::ffff:169.254.169.254]/"), "private"],
  [redirect("http://localhost/"), "host"],
  [redirect("http://sho.rt/"), "host"],
  [redirect("http://inner.example/"), "private"],
  [redirect("http://site.example:8080/"), "port"],
  [redirect(`http://127.0.0.1:${trapPortPlaceholder}/`), "private"],
  [redirect(redirect("http://10.0.0.1/"), 307), "private"],
];

function redirect(location: string, status = 302): string {
  return `http://site.example/to?status=${status}&l=${encodeURIComponent(location)}`;
}

Deno.test("GET /api/preview refuses every inner address, name and port, and never connects inward", async (t) => {
  await using w = await world();
  assert(SSRF_CASES.length >= 40);
  for (const [index, [raw, reason]] of SSRF_CASES.entries()) {
    const url = raw.replaceAll(trapPortPlaceholder, String(w.trap.port));
    await t.step(`${url} is refused for its ${reason}`, async () => {
      // One client per case, so the rate limit stays out of the way.
      const res = await w.preview(url, `198.51.100.${index}`);
      assertEquals(res.status, 400);
      assertEquals(res.headers.get("content-type"), "application/json");
      const body = await res.json();
      assertEquals(body.reason, reason, `${url}: ${body.error}`);
      assert(typeof body.error === "string" && body.error.length > 0);
    });
  }
  assertEquals(w.trap.accepted(), 0);
  // The only connections made were to site.example's public address, for the redirects.
  assert(w.net.dials.every((dial) => dial === `${PUBLIC_ADDRESS}:80`), String(w.net.dials));
  // Names refused by name were never looked up.
  const refusedByName = ["localhost", "foo.localhost", "intranet", "printer.local", "sho.rt"];
  assert(refusedByName.every((name) => !w.net.lookups.includes(name)), String(w.net.lookups));
});

Deno.test("GET /api/preview judges a literal address as an address when the service's host is one", async () => {
  await using w = await world({}, { BASE_URL: "http://127.0.0.1:8000" });
  const cases: [string, string][] = [
    ["http://127.0.0.1/", "private"],
    ["http://127.1/", "private"],
    ["http://0x7f.0.0.1/", "private"],
    ["http://2130706433/", "private"],
    ["http://127.0.0.1:8000/", "private"],
    [`http://${PUBLIC_ADDRESS}:8000/`, "port"],
    ["http://user:pass@127.0.0.1/", "host"],
  ];
  for (const [index, [url, reason]] of cases.entries()) {
    const res = await w.preview(url, `198.51.100.${index}`);
    assertEquals(res.status, 400, url);
    assertEquals(res.headers.get("content-type"), "application/json");
    const body = await res.json();
    assertEquals(body.reason, reason, `${url}: ${body.error}`);
    assert(typeof body.error === "string" && body.error.length > 0);
  }
  assertEquals(w.net.dials, []);
  assertEquals(w.trap.accepted(), 0);
});

Deno.test("GET /api/preview connects to the address it checked, so DNS rebinding cannot slip through", async () => {
  await using w = await world();
  w.names["rebind.example"] = (lookup) => lookup === 0 ? [PUBLIC_ADDRESS] : ["127.0.0.1"];
  const res = await w.preview("http://rebind.example/page");
  assertEquals(res.status, 200);
  assertEquals((await res.json()).siteName, "Example Site");
  assertEquals(w.net.lookups, ["rebind.example"]);
  assertEquals(w.net.dials, [`${PUBLIC_ADDRESS}:80`]);
  // The next lookup answers inward: the next preview is refused, still without a connection.
  const again = await w.preview("http://rebind.example/page");
  assertEquals(again.status, 400);
  // Which inner address the name has is not said: that would map the service's network.
  assertEquals(await again.json(), {
    error: 'host "rebind.example" resolves to an address that is not public',
    reason: "private",
  });
  assertEquals(w.net.dials, [`${PUBLIC_ADDRESS}:80`]);
  assertEquals(w.trap.accepted(), 0);
});

Deno.test("GET /api/preview checks a redirect to the same name again, and refuses it when it now resolves inward", async () => {
  await using w = await world();
  w.names["rebind.example"] = (lookup) => lookup === 0 ? [PUBLIC_ADDRESS] : ["10.1.2.3"];
  const res = await w.preview("http://rebind.example/to?l=/page");
  assertEquals(res.status, 400);
  assertEquals((await res.json()).reason, "private");
  assertEquals(w.net.lookups, ["rebind.example", "rebind.example"]);
  assertEquals(w.net.dials, [`${PUBLIC_ADDRESS}:80`]);
  assertEquals(w.trap.accepted(), 0);
});

Deno.test("GET /api/preview answers 400 without a reason for a missing or unusable url", async () => {
  await using w = await world();
  const cases: [string, string][] = [
    ["/api/preview", "url is required"],
    ["/api/preview?url=", "url is required"],
    ["/api/preview?url=%20%20", "url is required"],
    ["/api/preview?url=ftp%3A%2F%2Fsite.example%2F", "url must use http or https"],
    ["/api/preview?url=file%3A%2F%2F%2Fetc%2Fpasswd", "url must use http or https"],
    ["/api/preview?url=http%3A%2F%2F%5B%3A%3A1", "not a valid address"],
  ];
  for (const [path, error] of cases) {
    const res = await w.t.request(path);
    assertEquals(res.status, 400, path);
    const body = await res.json();
    assert(body.error.includes(error), `${path}: ${body.error}`);
    assertEquals(body.reason, undefined);
  }
  assertEquals(w.net.dials, []);
});

// --- Extraction ---------------------------------------------------------------------------

Deno.test("GET /api/preview reads og, then twitter, then HTML fields, with absolute URLs", async () => {
  await using w = await world();
  const res = await w.preview("http://site.example/page");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("access-control-allow-origin"), "*");
  assertEquals(await res.json(), {
    url: "http://site.example/page",
    host: "site.example",
    title: "OG title & more",
    description: "OG description",
    siteName: "Example Site",
    image: "http://site.example/img/og.png?size=large",
    canonical: "http://site.example/canonical-page",
  });
});

Deno.test("GET /api/preview falls back to twitter and then to plain HTML fields", async () => {
  await using w = await world();
  const twitter = await (await w.preview("http://site.example/twitter")).json();
  assertEquals(twitter.title, "Tweet");
  assertEquals(twitter.image, "http://cdn.example/t.png");
  const plain = await (await w.preview("http://site.example/only-html")).json();
  assertEquals(plain.title, "Just a title");
  assertEquals(plain.description, "Plain description");
  assertEquals(plain.canonical, "https://site.example/canonical");
  assertEquals(plain.image, "");
  assertEquals(plain.siteName, "");
});

Deno.test("GET /api/preview resolves relative URLs against <base>, and drops non-http ones", async () => {
  await using w = await world();
  const based = await (await w.preview("http://site.example/base")).json();
  assertEquals(based.image, "https://cdn.example/assets/pic.png");
  assertEquals(based.canonical, "https://cdn.example/assets/page");
  const bad = await (await w.preview("http://site.example/bad-urls")).json();
  assertEquals(bad.image, "");
  assertEquals(bad.canonical, "");
});

Deno.test("GET /api/preview answers empty strings for what a page does not say", async () => {
  await using w = await world();
  assertEquals(
    await (await w.preview("http://site.example/empty")).json(),
    empty("http://site.example/empty"),
  );
});

Deno.test("GET /api/preview collapses whitespace and cuts text at 1,000 characters", async () => {
  await using w = await world();
  const body = await (await w.preview("http://site.example/long")).json();
  assertEquals(body.title.length, 1000 - 1); // "word word ... word" cut, trailing space trimmed
  assert(!/\s{2}/.test(body.title));
  assertEquals(body.description, "é".repeat(1000));
});

Deno.test("GET /api/preview honours the charset of the header, of <meta>, and of http-equiv", async () => {
  await using w = await world();
  const title = async (path: string) =>
    (await (await w.preview(`http://site.example${path}`)).json()).title;
  assertEquals(await title("/cp1252-header"), "Café “quoted”");
  assertEquals(await title("/latin1-meta"), "Grüße");
  assertEquals(await title("/sjis-http-equiv"), "日本語");
  assertEquals(await title("/header-wins"), "Café");
});

Deno.test("GET /api/preview reads the head of a huge page and stops reading at 512 KiB", async () => {
  await using w = await world();
  const huge = await (await w.preview("http://site.example/huge")).json();
  assertEquals(huge.title, "Huge");
  // A head that never ends: the preview still answers, from the first 512 KiB.
  const endless = await (await w.preview("http://site.example/endless")).json();
  assertEquals(endless.title, "Endless");
  // Past the cap, nothing more is read.
  const late = await (await w.preview("http://site.example/late")).json();
  assertEquals(late.title, "");
});

Deno.test("GET /api/preview stops at </head>: a <title> in the body is not the page's", async () => {
  await using w = await world();
  const body = await (await w.preview("http://site.example/page")).json();
  assertEquals(body.title, "OG title & more");
  const res = await w.preview("http://site.example/empty");
  assertEquals((await res.json()).title, "");
});

Deno.test("GET /api/preview reads chunked bodies", async () => {
  await using w = await world();
  const body = await (await w.preview("http://site.example/chunked")).json();
  assertEquals(body.title, "Chunked café");
  assertEquals(body.siteName, "Chunks");
});

Deno.test("GET /api/preview reads chunk extensions, split characters and bodies ended by close", async () => {
  await using w = await world();
  const cafe = new TextEncoder().encode("<title>Caf\u00e9</title>");
  const cut = cafe.indexOf(0xc3) + 1; // inside the two bytes of "é"
  await using chunked = rawServer(async (conn) => {
    await writeAll(conn, "HTTP/1.1 100 Continue\r\n\r\n");
    await writeAll(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n");
    await writeAll(conn, "Transfer-Encoding: chunked\r\n\r\n");
    await writeAll(conn, `${cut.toString(16)};name=value\r\n`);
    await writeAll(conn, new Uint8Array([...cafe.subarray(0, cut), 13, 10]));
    await writeAll(conn, `${(cafe.length - cut).toString(16)}\r\n`);
    await writeAll(conn, new Uint8Array([...cafe.subarray(cut), ...bytesOf("\r\n0\r\n\r\n")]));
  });
  await using closed = rawServer(async (conn) => {
    await writeAll(conn, "HTTP/1.0 200 OK\r\ncontent-type: TEXT/HTML\r\n\r\n<title>Until close");
  });
  w.names["chunks.example"] = ["93.184.216.40"];
  w.routes["93.184.216.40"] = chunked.port;
  w.names["close.example"] = ["93.184.216.41"];
  w.routes["93.184.216.41"] = closed.port;
  assertEquals((await (await w.preview("http://chunks.example/")).json()).title, "Café");
  assertEquals((await (await w.preview("http://close.example/")).json()).title, "Until close");
});

Deno.test("GET /api/preview sends a plain HTTP/1.1 request under the page's own host name", async () => {
  await using w = await world();
  const body = await (await w.preview("http://site.example/echo")).json();
  assertEquals(body.title, "site.example | lapse-preview/1.1 | identity");
});

Deno.test("GET /api/preview speaks TLS to the checked address and verifies the certificate by name", async () => {
  await using w = await world();
  const res = await w.preview("secure.example");
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.url, "https://secure.example/");
  assertEquals(body.title, "Secure page");
  assertEquals(w.net.dials, [`${SECURE_ADDRESS}:443`]);
  // Same server, same address, another name: the certificate does not match, so nothing is read.
  const wrong = await w.preview("https://wrong.example/");
  assertEquals(wrong.status, 200);
  assertEquals(await wrong.json(), empty("https://wrong.example/"));
});

// --- Unreachable pages --------------------------------------------------------------------

Deno.test("GET /api/preview answers 200 with empty fields for pages that are not HTML or not 2xx", async () => {
  await using w = await world();
  for (
    const path of [
      "/type?t=image%2Fpng",
      "/type?t=application%2Fjson",
      "/type?t=text%2Fplain",
      "/type",
      "/status?s=404",
      "/status?s=500",
      "/to?status=300&l=%2Fpage",
      "/to?status=302",
    ]
  ) {
    const url = `http://site.example${path}`;
    const res = await w.preview(url);
    assertEquals(res.status, 200, path);
    assertEquals(await res.json(), empty(url), path);
  }
  const xhtml = await (await w.preview("http://site.example/xhtml")).json();
  assertEquals(xhtml.title, "XHTML");
});

Deno.test("GET /api/preview answers 200 with empty fields when the name does not resolve or nothing listens", async () => {
  await using w = await world();
  w.names["closed.example"] = ["93.184.216.50"];
  w.routes["93.184.216.50"] = closedPort();
  for (const url of ["http://nowhere.example/", "http://closed.example/a?b=c"]) {
    const res = await w.preview(url);
    assertEquals(res.status, 200, url);
    assertEquals(await res.json(), empty(url));
  }
  assertEquals(w.trap.accepted(), 0);
});

Deno.test("GET /api/preview answers 200 with empty fields when the lookup fails", async () => {
  await using w = await world({
    resolve: () => Promise.reject(new Deno.errors.ConnectionRefused("no resolver")),
  });
  const res = await w.preview("http://site.example/page");
  assertEquals(res.status, 200);
  assertEquals(await res.json(), empty("http://site.example/page"));
});

Deno.test("GET /api/preview gives up on a slow page when its time is over", async () => {
  await using w = await world({ timeoutMs: 300 });
  await using stalling = rawServer(async (conn, head) => {
    if (head.startsWith("GET /silent")) return await untilClosed(conn);
    await writeAll(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<head><title>Slo");
    await untilClosed(conn);
  });
  w.names["slow.example"] = ["93.184.216.60"];
  w.routes["93.184.216.60"] = stalling.port;
  for (const url of ["http://slow.example/trickle", "http://slow.example/silent"]) {
    const started = performance.now();
    const res = await w.preview(url);
    const took = performance.now() - started;
    assertEquals(res.status, 200);
    assertEquals(await res.json(), empty(url));
    assert(took >= 250 && took < 2000, `took ${took} ms`);
  }
});

// --- Redirects ----------------------------------------------------------------------------

Deno.test("GET /api/preview follows redirects and reports the final URL", async () => {
  await using w = await world();
  const chain = redirect(redirect("/page", 308), 301);
  const res = await w.preview(chain);
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.url, "http://site.example/page");
  assertEquals(body.title, "OG title & more");
  const across = await (await w.preview(redirect("http://other.example/echo", 303))).json();
  assertEquals(across.url, "http://other.example/echo");
  assertEquals(across.title, "other.example | lapse-preview/1.1 | identity");
});

Deno.test("GET /api/preview follows five redirects and no more", async () => {
  await using w = await world();
  const five = await (await w.preview("http://site.example/count/5")).json();
  assertEquals(five.url, "http://site.example/count/0");
  assertEquals(five.title, "Arrived");
  const looping = await w.preview("http://site.example/loop/0");
  assertEquals(looping.status, 200);
  assertEquals(await looping.json(), empty("http://site.example/loop/5"));
  const loops = w.pages.paths().filter((path) => path.startsWith("/loop/"));
  assertEquals(loops, ["/loop/0", "/loop/1", "/loop/2", "/loop/3", "/loop/4", "/loop/5"]);
});

Deno.test("GET /api/preview stops at a redirect to another scheme, at the last page reached", async () => {
  await using w = await world();
  const url = redirect("ftp://site.example/file");
  assertEquals(await (await w.preview(url)).json(), empty(url));
});

// --- Rate limit ---------------------------------------------------------------------------

Deno.test("GET /api/preview allows 20 requests a minute per client, refused ones included", async () => {
  await using w = await world();
  for (let i = 0; i < 20; i++) {
    const res = await w.preview("http://localhost/");
    assertEquals(res.status, 400);
  }
  const over = await w.preview("http://site.example/page");
  assertEquals(over.status, 429);
  assert(Number(over.headers.get("retry-after")) >= 1);
  assertEquals(over.headers.get("ratelimit-limit"), "20");
  assert((await over.json()).error.includes("20 requests per minute"));
  assertEquals(w.net.dials, []);
  const other = await w.preview("http://site.example/page", "192.0.2.99");
  assertEquals(other.status, 200);
  w.t.advance(60_000);
  assertEquals((await w.preview("http://site.example/page")).status, 200);
});
