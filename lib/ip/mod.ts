/**
 * IP addresses in their one spelling: what a client, a destination or a preview target is
 * compared and counted by, whatever form it was written in.
 * @module
 */
import ipaddr from "ipaddr.js";

/** A host name without brackets, case or trailing dots, as it is compared and sent in SNI. */
export function bareHostName(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.+$/, "").toLowerCase();
}

// Digits, hex digits, `x` (0x7f.1), dots and colons, in brackets or not.
const ADDRESS_CHARACTERS = /^\[?[0-9A-Fa-fXx.:]+\]?$/;

/**
 * `address` in the URL standard's serialization (dotted decimal, or compressed hex IPv6), or
 * `null` when it is not an IP address (zone identifiers included). ipaddr.js reads `::a.b.c.d` as
 * IPv4-mapped, so the text goes through the URL parser first.
 */
export function canonicalAddress(address: string): string | null {
  // Only what an address can be written with: the URL parser would also take `a@1.2.3.4`.
  if (!ADDRESS_CHARACTERS.test(address)) return null;
  const bare = bareHostName(address);
  let hostname: string;
  try {
    hostname = new URL(`http://${bare.includes(":") ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return null;
  }
  const inner = bareHostName(hostname);
  if (hostname.startsWith("[")) return ipaddr.IPv6.isValid(inner) ? inner : null;
  return ipaddr.IPv4.isValidFourPartDecimal(inner) ? inner : null;
}

/**
 * `address` as {@linkcode canonicalAddress} spells it, an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`) as the IPv4 address it names; `null` when it is not an IP address.
 */
export function plainAddress(address: string): string | null {
  if (address.length > MOST_REMEMBERED) return plainAddressOf(address);
  let plain = plainAddresses.get(address);
  if (plain === undefined) {
    plain = plainAddressOf(address);
    if (plainAddresses.size >= MAX_REMEMBERED) plainAddresses.clear();
    plainAddresses.set(address, plain);
  }
  return plain;
}

// The answers of `plainAddress` kept, as a proxied service reads one for every request (parsing
// it through the URL parser costs some µs): up to 10,000 answers, started afresh when full, for
// spellings no longer than an address with brackets and an IPv4 tail can be (some 1.5 MiB).
const MAX_REMEMBERED = 10_000;
const MOST_REMEMBERED = 64;
const plainAddresses = new Map<string, string | null>();

function plainAddressOf(address: string): string | null {
  const canonical = canonicalAddress(address);
  if (canonical === null || !canonical.includes(":")) return canonical;
  const parsed = ipaddr.IPv6.parse(canonical);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : canonical;
}

/**
 * The network one party holds around `address`, for counting guesses: an IPv4 address alone,
 * the /64 of an IPv6 one (a single host is given a whole /64). Anything that is not an address
 * is its own group.
 */
export function addressGroup(address: string): string {
  const plain = plainAddress(address);
  if (plain === null) return address;
  if (!plain.includes(":")) return plain;
  const parts = ipaddr.IPv6.parse(plain).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}
