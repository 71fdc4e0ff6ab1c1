/**
 * Who is asking: the client address rate limits are kept by.
 * @module
 */
import type { Context } from "hono";
import { addressGroup, plainAddress } from "../../lib/ip/mod.ts";
import type { AppEnv, ConnectionInfo } from "./env.ts";

/** One header at a time: the value the request sent, or `null` (`Headers` is one). */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The client's address: the first `X-Forwarded-For` entry when the proxy is trusted, otherwise
 * the socket peer; `"unknown"` when neither is known. A forwarded entry that is not an IP address
 * is not believed, and the peer is used: the header is the client's to write, and rate limits
 * are kept in the store under this address.
 */
export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  return clientOf(c.req.raw.headers, c.env, trustProxy);
}

/**
 * The client as rate limits and the hashing queue count it: its address, an IPv6 one by its /64
 * (one host is given a whole /64 to pick from).
 */
export function clientGroup(c: Context<AppEnv>, trustProxy: boolean): string {
  return addressGroup(clientAddress(c, trustProxy));
}

/** {@linkcode clientAddress} from a request's headers and connection, outside Hono. */
export function clientOf(
  headers: HeaderReader,
  connection: ConnectionInfo | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = headers.get("x-forwarded-for");
    if (forwarded) {
      const comma = forwarded.indexOf(",");
      const first = (comma === -1 ? forwarded : forwarded.slice(0, comma)).trim();
      const address = first ? plainAddress(first) : null;
      if (address !== null) return address;
    }
  }
  return connection?.remoteAddr?.hostname || "unknown";
}
