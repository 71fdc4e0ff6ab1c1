import fc from "fast-check";
import { assertEquals } from "../../tests/_helpers/assert.ts";
import { plainAddress } from "../ip/mod.ts";
import { countryCode, deviceOf, proxyCountry, referrerName, VisitClassifier } from "./classify.ts";
import { loadGeoipLookup, packageLookup } from "./geoip.ts";

const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

Deno.test("deviceOf tells desktops, phones and tablets apart", () => {
  assertEquals(deviceOf(DESKTOP), "desktop");
  assertEquals(deviceOf(IPHONE), "mobile");
  assertEquals(deviceOf(IPAD), "tablet");
});

Deno.test("deviceOf counts bots and link-preview crawlers as bot", () => {
  for (
    const ua of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Twitterbot/1.0",
      "WhatsApp/2.23.20.0",
      "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
      "TelegramBot (like TwitterBot)",
      "curl/8.5.0",
    ]
  ) {
    assertEquals(deviceOf(ua), "bot", ua);
  }
});

Deno.test("deviceOf reads an empty or odd user agent as other, never a crash", () => {
  assertEquals(deviceOf(""), "other");
  assertEquals(deviceOf("   "), "other");
  assertEquals(
    deviceOf(
      "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/538.1 (KHTML, like Gecko) Version/6.0 TV Safari/538.1",
    ),
    "other",
  );
});

Deno.test("referrerName is the referring host, or direct", () => {
  assertEquals(referrerName(""), "direct");
  assertEquals(referrerName("https://www.Example.com/path?q=1"), "example.com");
  assertEquals(referrerName("http://news.example.org/"), "news.example.org");
  assertEquals(referrerName("android-app://com.example/"), "direct");
  assertEquals(referrerName("not a url"), "direct");
  // One host, however it is spelled.
  assertEquals(referrerName("https://A.B.Example./x"), "a.b.example");
  const rawUtf8 = String.fromCharCode(...new TextEncoder().encode("https://bücher.example/"));
  assertEquals(referrerName(rawUtf8), "xn--bcher-kva.example");
  // Bytes that are no UTF-8 are read as they came.
  assertEquals(referrerName("https://b\u00fccher.example/"), "xn--bcher-kva.example");
  // Only the host is read as UTF-8: bytes after it, or a character cut in two, change nothing.
  assertEquals(referrerName(`${rawUtf8}?q=\u00e9`), "xn--bcher-kva.example");
  assertEquals(referrerName(`${rawUtf8}${"p".repeat(487)}\u00c3`), "xn--bcher-kva.example");
  assertEquals(referrerName("https://example../"), "example");
  assertEquals(referrerName("\u00ef\u00bb\u00bfhttps://x.example/"), "direct");
});

Deno.test("countryCode accepts known two-letter codes only", () => {
  assertEquals(countryCode("de"), "DE");
  assertEquals(countryCode(" GB "), "GB");
  assertEquals(countryCode("XK"), "XK");
  assertEquals(countryCode("uk"), "GB", "a replaced code counts under its successor");
  assertEquals(countryCode("SU"), "RU");
  assertEquals(countryCode("XX"), null);
  assertEquals(countryCode("ZZ"), null);
  assertEquals(countryCode("QQ"), null);
  assertEquals(countryCode("T1"), null);
  assertEquals(countryCode("USA"), null);
  assertEquals(countryCode(""), null);
});

// How a code was decided before the table: through the runtime's region names on every call.
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
function countryCodeBefore(value: string | null | undefined): string | null {
  if (!value) return null;
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || code === "XX" || code === "ZZ") return null;
  if (regionNames.of(code) === undefined) return null;
  return Intl.getCanonicalLocales(`und-${code}`)[0]!.slice(4);
}

Deno.test("countryCode answers as the runtime's region names do, each code and any text", () => {
  const letters = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
  const pairs = letters.flatMap((a) => letters.map((b) => a + b));
  const known = pairs.filter((pair) => countryCode(pair) !== null);
  assertEquals(known.length > 240 && known.length < 300, true, `${known.length} codes`);
  for (const pair of pairs) {
    for (
      const spelling of [pair, pair.toLowerCase(), pair[0] + pair[1]!.toLowerCase(), ` ${pair}\t`]
    ) {
      assertEquals(countryCode(spelling), countryCodeBefore(spelling), spelling);
    }
  }
  // Letters that are upper-case ASCII only once upper-cased: the dotless i, the long s.
  assertEquals(countryCode("\u017fe"), "SE");
  assertEquals(countryCode("\u0131t"), "IT");
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 4 }),
        fc.string({ unit: fc.constantFrom(..."aAzZsSiIxX \t\u017f\u0131\u00e9"), maxLength: 4 }),
      ),
      (value) => assertEquals(countryCode(value), countryCodeBefore(value), JSON.stringify(value)),
    ),
    { numRuns: 5_000, seed: 35 },
  );
});

Deno.test("proxyCountry takes the first header that holds a known code", () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name] ?? null;
  assertEquals(proxyCountry(headers({ "cf-ipcountry": "XX", "x-vercel-ip-country": "de" })), "de");
  assertEquals(proxyCountry(headers({ "cf-ipcountry": "T1", "x-country-code": " uk " })), " uk ");
  assertEquals(proxyCountry(headers({ "cf-ipcountry": "QQ" })), "");
  assertEquals(proxyCountry(headers({})), "");
});

Deno.test("the classifier finds the country of an address, a trusted header winning", async () => {
  const classifier = new VisitClassifier(await loadGeoipLookup());
  const facts = { userAgent: DESKTOP, referer: "", client: "81.2.69.160", country: "" };
  assertEquals(classifier.classify(facts).country, "GB");
  assertEquals(classifier.classify({ ...facts, client: "2a00:1450:4001:81b::200e" }).country, "DE");
  assertEquals(classifier.classify({ ...facts, client: "127.0.0.1" }).country, "unknown");
  assertEquals(classifier.classify({ ...facts, client: "unknown" }).country, "unknown");
  assertEquals(classifier.classify({ ...facts, country: "fr" }).country, "FR");
});

Deno.test("the classifier answers no country by address until its lookup is set", () => {
  const classifier = new VisitClassifier();
  assertEquals(classifier.canLookUp, false);
  assertEquals(classifier.country("", "81.2.69.160"), null);
  assertEquals(classifier.country("fr", "81.2.69.160"), "FR", "a trusted header needs no lookup");
  assertEquals(
    classifier.country("XX", "81.2.69.160"),
    null,
    "an unknown code falls to the lookup",
  );
  classifier.setLookup((address) => address === "81.2.69.160" ? "GB" : null);
  assertEquals(classifier.country("", "81.2.69.160"), "GB");
  assertEquals(classifier.country("XX", "127.0.0.1"), "unknown");
  assertEquals(classifier.device(DESKTOP + " x".repeat(1_000)), "desktop");
  assertEquals(classifier.referrer(""), "direct");
  assertEquals(
    classifier.referrer("https://www.News.example/" + "p".repeat(5_000)),
    "news.example",
  );
});

// Public addresses of every kind as the redirect reads them (through plainAddress): IPv4 from the
// whole space, IPv6 inside ranges ISPs hand out and at random.
const addresses = fc.oneof(
  fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((n) =>
    [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join(".")
  ),
  fc.tuple(
    fc.constantFrom("2003:c0", "2601:18c", "2a01:e0a", "2405:201", "240e:3b0", "2a00:1450", "2c0f"),
    fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 6, maxLength: 6 }),
  ).map(([prefix, rest]) => [prefix, ...rest.map((piece) => piece.toString(16))].join(":")),
  fc.ipV6(),
  fc.ipV4().map((v4) => `::ffff:${v4}`),
).map((address) => plainAddress(address) ?? address);

Deno.test("countries of addresses are those the package's own lookup gives", async () => {
  const classifier = new VisitClassifier(await loadGeoipLookup());
  const before = await packageLookup();
  let found = 0;
  fc.assert(
    fc.property(addresses, (address) => {
      const expected = countryCodeBefore(before(address)) ?? "unknown";
      if (expected !== "unknown") found++;
      assertEquals(classifier.country("", address), expected, address);
      assertEquals(
        classifier.classify({ userAgent: DESKTOP, referer: "", client: address, country: "" })
          .country,
        expected,
      );
    }),
    { numRuns: 20_000, seed: 35 },
  );
  assertEquals(found > 10_000, true, `${found} addresses had a country`);
});
