/**
 * Which names and addresses a preview may reach: public host names and public unicast addresses.
 * Both checks are allow-lists: any range ipaddr.js names (loopback, private, CGNAT...) is refused.
 * @module
 */
import ipaddr from "ipaddr.js";
import { bareHostName, plainAddress } from "../ip/mod.ts";

/** Name suffixes that never denote a public host (RFC 6761, RFC 6762, RFC 8375, ICANN). */
const INNER_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".test", ".invalid"];

/** Global unicast IPv6 space; everything outside it is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
/** IPv4-compatible IPv6 addresses (deprecated), which also hold `::` and `::1`. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR("::/96");
/** The well-known NAT64 prefix: the last 32 bits are the IPv4 address reached. */
const NAT64 = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/**
 * Cloud metadata and platform services that sit in public address space, so the ranges above
 * let them through: Azure's WireServer and DNS (168.63.129.16). The metadata addresses of the
 * other clouds (169.254.169.254, Alibaba's 100.100.100.200, Oracle's 192.0.0.192, AWS's
 * fd00:ec2::254) are link-local, shared or unique-local, and refused with their ranges.
 */
const METADATA_ADDRESSES = new Set(["168.63.129.16"]);

/** Whether `hostname` (from a parsed URL) is an IP address literal rather than a name. */
export function isAddressLiteral(hostname: string): boolean {
  const bare = bareHostName(hostname);
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare);
}

/**
 * Whether `hostname` is a name that is not a public host: `localhost` and `*.localhost`,
 * single-label names, names with empty labels, `.local`, `.internal`, `.home.arpa`, `.test`,
 * `.invalid`, and the service's own host or its `www.` variant. An address literal is no name:
 * it is judged by {@linkcode publicAddress}, even where the service's host is that address.
 */
export function isInnerHostName(hostname: string, serviceHost: string): boolean {
  const name = bareHostName(hostname);
  if (isAddressLiteral(name)) return false;
  const service = bareHostName(serviceHost);
  if (name === service || name === `www.${service}`) return true;
  if (name === "localhost") return true;
  const labels = name.split(".");
  if (labels.length < 2 || labels.some((label) => label === "")) return true;
  return INNER_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * The address to dial for `address` when it is public unicast, else `null`. IPv4-mapped and
 * NAT64 forms are judged (and a mapped one dialled) by the IPv4 address inside; the other
 * tunnelling and special IPv6 ranges are refused outright.
 */
export function publicAddress(address: string): string | null {
  // A mapped address comes back as the IPv4 address it names.
  const plain = plainAddress(address);
  if (plain === null) return null;
  const parsed = ipaddr.parse(plain);
  if (parsed.kind() === "ipv4") {
    const v4 = parsed.toString();
    return parsed.range() === "unicast" && !METADATA_ADDRESSES.has(v4) ? v4 : null;
  }
  const v6 = parsed as ipaddr.IPv6;
  if (v6.match(NAT64)) {
    const inner = new ipaddr.IPv4(v6.toByteArray().slice(12));
    return publicAddress(inner.toString()) === null ? null : v6.toString();
  }
  if (v6.match(IPV4_COMPATIBLE)) return null;
  return v6.match(GLOBAL_UNICAST_V6) && v6.range() === "unicast" ? v6.toString() : null;
}
