import { assertEquals } from "../../tests/_helpers/assert.ts";
import {
  absoluteUrl,
  cleanText,
  createHeadParser,
  loadHtmlParser,
  readHeadFields,
} from "./extract.ts";

await loadHtmlParser();

const PAGE = new URL("https://example.com/dir/page.html");

function parse(html: string, pieces = 1) {
  const head = createHeadParser(PAGE);
  const size = Math.ceil(html.length / pieces);
  for (let i = 0; i < html.length; i += size) head.write(html.slice(i, i + size));
  return head.finish();
}

Deno.test("createHeadParser prefers og, then twitter, then HTML", () => {
  const html = `<head><title>T3</title><meta name=description content=D3>
    <meta name=twitter:title content=T2><meta name=twitter:description content=D2>
    <meta property=og:title content=T1><meta property=og:description content=D1></head>`;
  assertEquals(parse(html), {
    title: "T1",
    description: "D1",
    siteName: "",
    image: "",
    canonical: "",
  });
});

Deno.test("createHeadParser passes over empty values to the next source", () => {
  const fields = parse(`<meta property="og:title" content="  "><title>Real title</title>`);
  assertEquals(fields.title, "Real title");
});

Deno.test("createHeadParser reads the same page alike, however it is cut", () => {
  const html = `<head><title>Split &amp; joined</title><meta property="og:image" content="a.png">
    <link rel="canonical" href="/c"><meta name="application-name" content="App"></head>`;
  const whole = parse(html);
  assertEquals(whole, {
    title: "Split & joined",
    description: "",
    siteName: "App",
    image: "https://example.com/dir/a.png",
    canonical: "https://example.com/c",
  });
  assertEquals(parse(html, 7), whole);
  assertEquals(parse(html, html.length), whole);
});

Deno.test("createHeadParser stops at </head> and at <body>", () => {
  const closed = createHeadParser(PAGE);
  closed.write("<head><title>A</title></head><meta property=og:title content=B>");
  assertEquals(closed.done, true);
  assertEquals(closed.finish().title, "A");
  assertEquals(parse("<body><title>In body</title>").title, "");
});

Deno.test("createHeadParser ignores a <title> inside inline SVG", () => {
  assertEquals(parse("<head><svg><title>Icon</title></svg><title>Page</title>").title, "Page");
});

Deno.test("createHeadParser takes og:url when there is no canonical link", () => {
  assertEquals(
    parse('<meta property="og:url" content="/from-og">').canonical,
    "https://example.com/from-og",
  );
});

Deno.test("cleanText collapses whitespace and cuts at 1,000 characters without splitting one", () => {
  assertEquals(cleanText("  a \n\t b  "), "a b");
  assertEquals(cleanText(undefined), "");
  const emoji = "😀".repeat(1200);
  assertEquals(Array.from(cleanText(emoji)).length, 1000);
});

Deno.test("absoluteUrl keeps only http(s) URLs of bounded length", () => {
  assertEquals(absoluteUrl("//cdn.example/x.png", PAGE), "https://cdn.example/x.png");
  assertEquals(absoluteUrl("javascript:alert(1)", PAGE), null);
  assertEquals(absoluteUrl("http://[bad", PAGE), null);
  assertEquals(absoluteUrl(`/${"a".repeat(5000)}`, PAGE), null);
});

Deno.test("readHeadFields decodes a body cut anywhere, in its declared charset", async () => {
  const bytes = new Uint8Array([
    ...new TextEncoder().encode("<title>Caf"),
    0xe9,
    ...new TextEncoder().encode("</title>"),
  ]);
  const body = (async function* () {
    for (const byte of bytes) yield new Uint8Array([byte]);
  })();
  const fields = await readHeadFields(body, {
    pageUrl: PAGE,
    contentType: "text/html; charset=latin1",
    maxBytes: 1024,
  });
  assertEquals(fields.title, "Café");
});

Deno.test("readHeadFields reads no further than maxBytes", async () => {
  const html = new TextEncoder().encode(`<head>${" ".repeat(100)}<title>Past the cap</title>`);
  let pulled = 0;
  const body = (async function* () {
    for (let i = 0; i < html.length; i += 10) {
      pulled += 10;
      yield html.subarray(i, i + 10);
    }
  })();
  const fields = await readHeadFields(body, {
    pageUrl: PAGE,
    contentType: "text/html",
    maxBytes: 50,
  });
  assertEquals(fields.title, "");
  assertEquals(pulled, 50);
});
