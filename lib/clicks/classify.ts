/**
 * Classifying a visit: bot or person, device class, referring host, country. Done on the
 * request, through bounded caches of the answers per User-Agent and Referer, so a buffered link
 * keeps a handful of counts rather than its visitors (docs/decisions/2026-11-28-click-layout.md).
 * A country needs no cache: an address is looked up by bisection over typed arrays (`geoip.ts`),
 * and each two-letter code is decided once.
 * @module
 */
import Bowser from "bowser";
import { isbot } from "isbot";
import { DIRECT_REFERRER } from "../tallies/shares.ts";

/** Device classes; bots and link-preview crawlers count only as `bot`. */
export type Device = "desktop" | "mobile" | "tablet" | "bot" | "other";

/** What a visit is, for the tallies. */
export interface VisitClass {
  /** Whether a bot or link-preview crawler made it. */
  bot: boolean;
  /** Device class. */
  device: Device;
  /** Referring host, or `direct`. */
  referrer: string;
  /** ISO 3166 alpha-2 code, or `unknown`. */
  country: string;
}

/** The raw facts of a visit, as the redirect saw them; none holds a newline, as no header can. */
export interface VisitFacts {
  userAgent: string;
  referer: string;
  /** The client address. */
  client: string;
  /** A country code from a trusted proxy header, or `""`. */
  country: string;
}

/** Looks up a country code for an address, or `null`. */
export type CountryLookup = (address: string) => string | null;

/**
 * The answers each cache keeps, per User-Agent and Referer: a full cache starts afresh, so a
 * flood of distinct headers costs one parse per request and bounded memory (some 6 MiB each at
 * most, with the 256 characters of a User-Agent and 512 of a Referer that are read).
 */
export const MAX_CACHED = 10_000;

/** The most of a User-Agent parsed: what tells a device or a bot, at a bounded cost. */
export const PARSED_USER_AGENT = 256;

/** The most of a Referer read: enough to find the referring host (253 characters at most). */
export const PARSED_REFERER = 512;

/**
 * Classifies visits on the request, caching each answer per User-Agent and Referer. The country
 * lookup by address may come later (it loads asynchronously): until then
 * {@linkcode VisitClassifier.country} answers `null` for an address no proxy named.
 */
export class VisitClassifier {
  #devices = new Map<string, Device>();
  #referrers = new Map<string, string>();
  #lookup: CountryLookup | null;

  /** Builds a classifier that finds countries with `lookup`, or with one set later. */
  constructor(lookup: CountryLookup | null = null) {
    this.#lookup = lookup;
  }

  /** Whether countries of addresses can be found now. */
  get canLookUp(): boolean {
    return this.#lookup !== null;
  }

  /** Sets the country lookup, once loaded. */
  setLookup(lookup: CountryLookup): void {
    this.#lookup = lookup;
  }

  /** The class of one visit; a country not found yet reads `unknown`. */
  classify(facts: VisitFacts): VisitClass {
    const device = this.device(facts.userAgent);
    return {
      bot: device === "bot",
      device,
      referrer: this.referrer(facts.referer),
      country: this.country(facts.country, facts.client) ?? "unknown",
    };
  }

  /** The device class of a User-Agent (its first {@linkcode PARSED_USER_AGENT} characters). */
  device(whole: string): Device {
    const userAgent = cut(whole, PARSED_USER_AGENT);
    let device = this.#devices.get(userAgent);
    if (device === undefined) {
      device = deviceOf(userAgent);
      remember(this.#devices, userAgent, device);
    }
    return device;
  }

  /** The referring host of a Referer (its first {@linkcode PARSED_REFERER} characters). */
  referrer(whole: string): string {
    if (whole === "") return DIRECT_REFERRER;
    const referer = cut(whole, PARSED_REFERER);
    let name = this.#referrers.get(referer);
    if (name === undefined) {
      name = referrerName(referer);
      remember(this.#referrers, referer, name);
    }
    return name;
  }

  /**
   * The country of a visit: the code a trusted proxy named (`proxy`, or `""`), else that of
   * `client`'s address; `null` while the lookup by address is not loaded.
   */
  country(proxy: string, client: string): string | null {
    if (proxy !== "") {
      const code = countryCode(proxy);
      if (code !== null) return code;
    }
    return this.addressCountry(client);
  }

  /** The country of an address, or `unknown`; `null` while the lookup is not loaded. */
  addressCountry(address: string): string | null {
    if (this.#lookup === null) return null;
    return countryCode(safeLookup(this.#lookup, address)) ?? "unknown";
  }
}

function cut(header: string, most: number): string {
  return header.length > most ? header.slice(0, most) : header;
}

/**
 * The device class of a user agent, told by its first {@linkcode PARSED_USER_AGENT} characters;
 * an empty one is `other`, never a crash.
 */
export function deviceOf(whole: string): Device {
  const userAgent = whole.length > PARSED_USER_AGENT ? whole.slice(0, PARSED_USER_AGENT) : whole;
  if (userAgent.trim() === "") return "other";
  if (isbot(userAgent)) return "bot";
  try {
    const type = Bowser.parse(userAgent).platform.type;
    if (type === "desktop" || type === "mobile" || type === "tablet") return type;
    if (type === "bot") return "bot";
    return "other";
  } catch {
    return "other";
  }
}

/**
 * The referring host of a `Referer` header, lower case without `www.` or final dots, or
 * `direct`. A host sent as raw UTF-8 (which the runtime reads byte by byte) is read as UTF-8.
 */
export function referrerName(referer: string): string {
  if (!referer) return DIRECT_REFERRER;
  try {
    const url = new URL(withUtf8Host(referer));
    if (url.protocol !== "http:" && url.protocol !== "https:") return DIRECT_REFERRER;
    return url.hostname.replace(/^www\./, "").replace(/\.+$/, "").slice(0, 253) || DIRECT_REFERRER;
  } catch {
    return DIRECT_REFERRER;
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// A header value holds one character per byte. When the bytes of its host (between `//` and
// the path, query or fragment) above 0x7f make valid UTF-8, the host was sent as UTF-8 and is
// read so; only the host is, so bytes elsewhere (or a character the cut at 512 split in two)
// never change the name. Anything else is left as it came.
function withUtf8Host(referer: string): string {
  const start = referer.indexOf("//");
  if (start === -1) return referer;
  const rest = referer.slice(start + 2);
  const end = rest.search(/[/?#]/);
  const host = end === -1 ? rest : rest.slice(0, end);
  if (!/[\u0080-\u00ff]/.test(host) || /[\u0100-\uffff]/.test(host)) return referer;
  try {
    const decoded = utf8.decode(Uint8Array.from(host, (char) => char.charCodeAt(0)));
    return referer.slice(0, start + 2) + decoded + (end === -1 ? "" : rest.slice(end));
  } catch {
    return referer;
  }
}

/** Headers a trusted proxy may set to the client's country, in order of preference. */
const COUNTRY_HEADERS = ["cf-ipcountry", "x-vercel-ip-country", "x-country-code"];

/**
 * The first of the country headers a trusted proxy sets (read with `header`) that holds a
 * country code, or `""`: `CF-IPCountry: XX` (unknown) leaves the next header to say.
 */
export function proxyCountry(header: (name: string) => string | null): string {
  for (const name of COUNTRY_HEADERS) {
    const value = header(name);
    if (countryCode(value) !== null) return value!;
  }
  return "";
}

/**
 * A known two-letter country code in upper case, or `null` for anything else (`XX` and `ZZ`,
 * which say "unknown", `T1`, `QQ`...). A code that has been replaced is counted under the code
 * that replaced it (`UK` as `GB`, `SU` as `RU`), so one country is one name. Each code is decided
 * once: a country a proxy names or the database gives costs a table read.
 */
export function countryCode(value: string | null | undefined): string | null {
  if (!value) return null;
  let a = value.length === 2 ? value.charCodeAt(0) | 0x20 : 0;
  let b = value.length === 2 ? value.charCodeAt(1) | 0x20 : 0;
  if (a < 0x61 || a > 0x7a || b < 0x61 || b > 0x7a) {
    // Anything but two ASCII letters, read as it always was: trimmed, in upper case.
    const code = value.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(code)) return null;
    a = code.charCodeAt(0) | 0x20;
    b = code.charCodeAt(1) | 0x20;
  }
  const slot = (a - 0x61) * 26 + (b - 0x61);
  let answer = codes[slot];
  if (answer === undefined) codes[slot] = answer = decideCode(String.fromCharCode(a - 32, b - 32));
  return answer;
}

// The answer for each of the 676 two-letter codes, decided as each is first seen.
const codes: (string | null | undefined)[] = new Array(26 * 26).fill(undefined);

// The regions the runtime knows by their two-letter code: a country a proxy names must be one,
// so a link's countries stay a few hundred at most, whatever a client sends. Made on first use:
// the region names cost a process some 5 MiB, which one that classifies no visit (a sweep task)
// does without.
let regions: Intl.DisplayNames | undefined;

/** `code` (two upper-case letters) as it is counted, or `null` when no region has it. */
function decideCode(code: string): string | null {
  if (code === "XX" || code === "ZZ") return null;
  regions ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  if (regions.of(code) === undefined) return null;
  return Intl.getCanonicalLocales(`und-${code}`)[0]!.slice(4);
}

function safeLookup(lookup: CountryLookup, address: string): string | null {
  try {
    const bracketed = address.charCodeAt(0) === 0x5b ||
      address.charCodeAt(address.length - 1) === 0x5d;
    return lookup(bracketed ? address.replace(/^\[|\]$/g, "") : address);
  } catch {
    return null;
  }
}

function remember<V>(cache: Map<string, V>, key: string, value: V, most = MAX_CACHED): void {
  if (cache.size >= most) cache.clear();
  cache.set(key, value);
}
