/**
 * Classifying a visit: bot or person, device class, referring host, country. Done at flush
 * time, off the request path, with the answers for repeated user agents and addresses cached.
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

// The answers kept, per User-Agent, address and Referer: past these, a cache starts afresh. A
// flush classifies each distinct visitor's facts it does not know; repeat visitors, and the
// addresses of a busy service's clients, are known from one flush to the next. At most some 6,
// 5 and 6 MiB, with the longest User-Agents and Referers a visit keeps.
const MAX_DEVICES = 10_000;
const MAX_COUNTRIES = 50_000;
const MAX_REFERRERS = 5_000;

/** The most of a User-Agent parsed: what tells a device or a bot, at a bounded cost. */
export const PARSED_USER_AGENT = 256;

/** A flush's work between turns of the event loop, at most (a slice of it), in ms. */
export const SLICE_MS = 4;

/** Lets the event loop run what waits (requests, timers) before going on. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Classifies visits, caching per user agent and per address. */
export class VisitClassifier {
  #devices = new Map<string, Device>();
  #countries = new Map<string, string>();
  #referrers = new Map<string, string>();
  #lookup: CountryLookup;

  /** Builds a classifier that finds countries with `lookup`. */
  constructor(lookup: CountryLookup) {
    this.#lookup = lookup;
  }

  /**
   * Classifies each of `userAgents`, and finds the country of each of `addresses`, not yet
   * known, once each, yielding to the event loop between slices of a few ms, so a flush of many
   * distinct visitors never holds the loop; the answers are kept for this flush's visits (those
   * of the flush before are forgotten first, past the usual cache's size).
   */
  async learn(userAgents: Iterable<string>, addresses: Iterable<string> = []): Promise<void> {
    if (this.#devices.size > MAX_DEVICES) this.#devices.clear();
    if (this.#countries.size > MAX_COUNTRIES) this.#countries.clear();
    let sliceStart = performance.now();
    const pause = async () => {
      if (performance.now() - sliceStart < SLICE_MS) return;
      await yieldToLoop();
      sliceStart = performance.now();
    };
    for (const userAgent of userAgents) {
      if (this.#devices.has(userAgent)) continue;
      this.#devices.set(userAgent, deviceOf(userAgent));
      await pause();
    }
    for (const address of addresses) {
      if (this.#countries.has(address)) continue;
      this.#countries.set(address, this.#lookUp(address));
      await pause();
    }
  }

  /** The class of one visit. */
  classify(facts: VisitFacts): VisitClass {
    const device = this.#device(facts.userAgent);
    return {
      bot: device === "bot",
      device,
      referrer: this.#referrer(facts.referer),
      country: countryCode(facts.country) ?? this.#country(facts.client),
    };
  }

  #device(userAgent: string): Device {
    let device = this.#devices.get(userAgent);
    if (device === undefined) {
      device = deviceOf(userAgent);
      remember(this.#devices, userAgent, device, MAX_DEVICES);
    }
    return device;
  }

  #referrer(referer: string): string {
    let name = this.#referrers.get(referer);
    if (name === undefined) {
      name = referrerName(referer);
      remember(this.#referrers, referer, name, MAX_REFERRERS);
    }
    return name;
  }

  #country(address: string): string {
    let country = this.#countries.get(address);
    if (country === undefined) {
      country = this.#lookUp(address);
      remember(this.#countries, address, country, MAX_COUNTRIES);
    }
    return country;
  }

  #lookUp(address: string): string {
    return countryCode(safeLookup(this.#lookup, address)) ?? "unknown";
  }
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
    if (knownRegion(value) !== null) return value!;
  }
  return "";
}

// The regions the runtime knows by their two-letter code: a country a proxy names must be one,
// so a link's countries stay a few hundred at most, whatever a client sends. Made on first use:
// the region names cost a process some 5 MiB, which one that classifies no visit (a sweep task)
// does without.
let regions: Intl.DisplayNames | undefined;

/**
 * A known two-letter country code in upper case, or `null` for anything else (`XX` and `ZZ`,
 * which say "unknown", `T1`, `QQ`...). A code that has been replaced is counted under the code
 * that replaced it (`UK` as `GB`, `SU` as `RU`), so one country is one name.
 */
export function countryCode(value: string | null | undefined): string | null {
  const code = knownRegion(value);
  return code === null ? null : Intl.getCanonicalLocales(`und-${code}`)[0]!.slice(4);
}

/** `value` as a two-letter code in upper case when the runtime knows its region, else `null`. */
function knownRegion(value: string | null | undefined): string | null {
  if (!value) return null;
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || code === "XX" || code === "ZZ") return null;
  regions ??= new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  return regions.of(code) === undefined ? null : code;
}

function safeLookup(lookup: CountryLookup, address: string): string | null {
  try {
    return lookup(address.replace(/^\[|\]$/g, ""));
  } catch {
    return null;
  }
}

function remember<V>(cache: Map<string, V>, key: string, value: V, most: number): void {
  if (cache.size >= most) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}
