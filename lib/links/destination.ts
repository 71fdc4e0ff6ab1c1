/**
 * Destinations: what a link may point to, in the form it is stored.
 * @module
 */
import { InvalidInputError } from "../errors.ts";
import { bareHostName, plainAddress } from "../ip/mod.ts";
import { MAX_DESTINATION_LENGTH } from "./limits.ts";

export { MAX_DESTINATION_LENGTH };

const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
// What may be a scheme (`mailto:`, `tel:`, `javascript:`), written without `//`, or the name of a
// host before its port (`a.b:80`); see `isOtherScheme`.
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// What follows the name of a host and port (`a.b:80/x`): digits, then the end or a path, query
// or fragment.
const PORT_AND_AFTER = /^\d*(?:[/?#]|$)/;
// Schemes that name no web host, even when only digits follow (`tel:123`, `javascript:1`).
const KNOWN_SCHEMES = new Set([
  "about",
  "blob",
  "data",
  "file",
  "ftp",
  "javascript",
  "mailto",
  "sms",
  "tel",
  "vbscript",
]);
// Schemes whose addresses carry an `@`; any other name before `user:password@host` is a user's.
const AT_SCHEMES = new Set(["acct", "im", "mailto", "pres", "sip", "sips", "ssh", "xmpp"]);
const WEB_SCHEME = /^https?:/i;
// A label of a host name as `URL` spells it (lower case, IDNs as `xn--`): letters, digits and
// inner hyphens, at most 63 (RFC 1123, 2.1).
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_HOST_LENGTH = 253;
// Characters no address can carry; newlines would otherwise be dropped silently by `new URL`.
// deno-lint-ignore no-control-regex
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\u2028\u2029]/;

/** An address as given by a person, parsed: see {@linkcode parseWebAddress}. */
export interface WebAddress {
  /** The parsed URL. */
  url: URL;
  /** The trimmed input, with `https://` prepended when it had no `scheme://`. */
  given: string;
}

/**
 * Parses an address a person typed: trimmed, `https://` prepended when it has no `scheme://` (and
 * is no `mailto:`-like address), an http(s) URL without credentials (unless
 * `options.credentials`), at most {@linkcode MAX_DESTINATION_LENGTH} characters. Throws
 * {@linkcode InvalidInputError} naming the problem.
 */
export function parseWebAddress(
  raw: string,
  options: { credentials?: boolean } = {},
): WebAddress {
  const trimmed = raw.trim();
  if (trimmed === "") throw invalidUrl("url must not be empty");
  if (trimmed.length > MAX_DESTINATION_LENGTH) {
    throw invalidUrl(`url must be at most ${MAX_DESTINATION_LENGTH} characters`);
  }
  if (CONTROL_OR_SPACE.test(trimmed)) {
    throw invalidUrl("url must not contain spaces or control characters");
  }
  const hasScheme = HAS_SCHEME.test(trimmed);
  if (!hasScheme) {
    // `http:example.com` is a web address written wrong, not another kind of address.
    if (WEB_SCHEME.test(trimmed)) throw invalidUrl("url is not a valid address");
    if (isOtherScheme(trimmed)) throw invalidUrl("url must use http or https");
  }
  const given = hasScheme ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw invalidUrl("url is not a valid address");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalidUrl("url must use http or https");
  }
  if (!options.credentials && (url.username || url.password)) {
    throw invalidUrl("url must not contain a user name or password");
  }
  return { url, given };
}

/** Options of {@linkcode normalizeDestination}. */
export interface DestinationOptions {
  /**
   * Whether the host must be a valid host name (letters, digits, inner hyphens); default true.
   * Imported legacy links, which once worked, are taken with any name `URL` takes.
   */
  strictHost?: boolean;
  /**
   * Where this service listens: a destination on its port whose host is its listening address,
   * a loopback name or address, or the unspecified address reaches the service itself.
   */
  listening?: ListenAddress;
  /** Whether a host is blocked by the operator (`BLOCKED_HOSTS_FILE`); default none is. */
  blocked?: (hostname: string) => boolean;
}

/** The address and port a service listens on. */
export interface ListenAddress {
  hostname: string;
  port: number;
}

/** The sentence a destination on a blocked host is refused with. */
export const BLOCKED_HOST = "destination host is blocked by this service";

/**
 * Normalizes a destination: parses it with {@linkcode parseWebAddress} and accepts only a real
 * host that is not the service itself.
 *
 * Returns the URL as it will be stored and redirected to (encoded, lower-case host); a bare
 * origin keeps its lack of a trailing slash.
 */
export function normalizeDestination(
  raw: string,
  serviceHost: string,
  options: DestinationOptions = {},
): string {
  const { url, given } = parseWebAddress(raw);
  // Before the host's form: `localhost:8301` on a service at `http://localhost:8301` is a loop.
  if (pointsBack(url, serviceHost, options.listening)) {
    throw invalidUrl("url must not point back to this service");
  }
  const refusal = hostRefusal(url.hostname, options.strictHost ?? true);
  if (refusal !== null) throw invalidUrl(refusal);
  if (options.blocked?.(url.hostname)) throw invalidUrl(BLOCKED_HOST);
  let href = url.href;
  const bareOrigin = url.pathname === "/" && !url.search && !url.hash &&
    !/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*\/$/.test(given);
  if (bareOrigin) href = href.slice(0, -1);
  if (href.length > MAX_DESTINATION_LENGTH) {
    // Counted as stored: encoded, where a character outside ASCII takes several.
    const encoded = given.length <= MAX_DESTINATION_LENGTH ? " once encoded" : "";
    throw invalidUrl(
      `url must be at most ${MAX_DESTINATION_LENGTH} characters${encoded}`,
    );
  }
  return href;
}

/**
 * Whether `url` reaches this service: its host is the service host (or its `www.` variant), or
 * it is on the port the service listens on and names its listening address, a loopback name or
 * address (`localhost`, `*.localhost`, `127.0.0.0/8`, `::1`) or the unspecified address.
 */
function pointsBack(url: URL, serviceHost: string, listening?: ListenAddress): boolean {
  const name = bareHostName(url.hostname);
  const host = name.replace(/^www\./, "");
  const address = plainAddress(name);
  if (host === serviceHost || (address !== null && address === plainAddress(serviceHost))) {
    return true;
  }
  if (listening === undefined) return false;
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (port !== listening.port) return false;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (address === null) return name === bareHostName(listening.hostname);
  return address.startsWith("127.") || address === "::1" || address === "0.0.0.0" ||
    address === "::" || address === plainAddress(listening.hostname);
}

/** Host of a stored destination, or `""` when it cannot be read. */
export function destinationHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

// Whether `address` starts with a scheme that is not the web's: a name and `:`, unless what
// follows reads as a port (and the name is no well-known scheme), or the name is a user's
// before `password@host`.
function isOtherScheme(address: string): boolean {
  const match = SCHEME.exec(address);
  if (match === null) return false;
  const scheme = match[1]!.toLowerCase();
  if (PORT_AND_AFTER.test(address.slice(match[0].length))) return KNOWN_SCHEMES.has(scheme);
  const userInfo = /^[^/?#]*@/.test(address);
  return !userInfo || AT_SCHEMES.has(scheme);
}

/**
 * Why `hostname` (as `URL` spells it) is refused, or `null`: it needs a domain (or to be an IP
 * address) and, when `strict`, to be a valid host name, since a name `URL` takes may still be
 * none (`-bad-.com`, `exa_mple.com`). An IP address, as `URL` spells it, is one.
 */
function hostRefusal(hostname: string, strict: boolean): string | null {
  if (hostname.startsWith("[")) return null; // IPv6 literal
  const name = hostname.replace(/\.$/, "");
  const labels = name.split(".");
  if (labels.length < 2 || labels.some((label) => label.length === 0)) {
    return "url must have a host name with a domain, or an IP address";
  }
  if (
    strict && (name.length > MAX_HOST_LENGTH || !labels.every((label) => HOST_LABEL.test(label)))
  ) {
    return "url must have a valid host name: letters, digits and inner hyphens";
  }
  return null;
}

// Every refusal here is about the `url` field.
function invalidUrl(message: string): InvalidInputError {
  return new InvalidInputError(message, { field: "url" });
}
