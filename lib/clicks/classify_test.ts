import { assertEquals } from "../../tests/_helpers/assert.ts";
import { countryCode, deviceOf, referrerName, VisitClassifier } from "./classify.ts";
import { loadGeoipLookup } from "./geoip.ts";

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
