/**
 * Checking one hop of a preview before any connection: its name, its port, its addresses.
 * @module
 */
import { PreviewRefusedError } from "../errors.ts";
import { bareHostName } from "../ip/mod.ts";
import { isAddressLiteral, isInnerHostName, publicAddress } from "./address.ts";

/**
 * Looks up every address of a host name (A and AAAA); an empty list when it has none. It should
 * give up when `signal` aborts.
 */
export type Resolver = (hostname: string, options: { signal: AbortSignal }) => Promise<string[]>;

/** Ports a preview may connect to. */
const ALLOWED_PORTS = new Set([80, 443]);

/** A hop that passed every check: where to connect, and under which name. */
export interface Target {
  /** The host name as sent in `Host` and checked by TLS (no brackets, no trailing dot). */
  hostname: string;
  /** The TCP port: 80 or 443. */
  port: number;
  /** Whether TLS is spoken. */
  tls: boolean;
  /** The checked public addresses, IPv4 first; the connection goes to one of these only. */
  addresses: string[];
}

/** Options of {@linkcode checkTarget}. */
export interface CheckTargetOptions {
  /** The service's own host; it is refused with reason `host`. */
  serviceHost: string;
  /** Whether a host is blocked by the operator; it is refused with reason `host`. */
  blocked?: (hostname: string) => boolean;
  /** Name lookup. */
  resolve: Resolver;
  /** Aborts the lookup. */
  signal: AbortSignal;
}

/**
 * Checks `url` in this order: credentials and the name (reason `host`), a literal address
 * (`private`, whatever host the service has), the port (`port`), then every resolved address
 * (`private`); throws {@linkcode PreviewRefusedError} at the first failure. Returns `null` when the name has no address at all; a failing lookup
 * rejects with the resolver's error.
 */
export async function checkTarget(url: URL, options: CheckTargetOptions): Promise<Target | null> {
  if (url.username || url.password) {
    throw new PreviewRefusedError("host", "url must not contain a user name or password");
  }
  const hostname = bareHostName(url.hostname);
  if (isInnerHostName(hostname, options.serviceHost)) {
    throw new PreviewRefusedError("host", `host "${hostname}" is not a public host name`);
  }
  if (options.blocked?.(hostname)) {
    throw new PreviewRefusedError("host", `host "${hostname}" is blocked by this service`);
  }
  const literal = isAddressLiteral(hostname);
  if (literal) refuseUnlessPublic(hostname, `address ${hostname} is not a public address`);
  const tls = url.protocol === "https:";
  const port = url.port === "" ? (tls ? 443 : 80) : Number(url.port);
  if (!ALLOWED_PORTS.has(port)) {
    throw new PreviewRefusedError("port", `port ${port} is not allowed, only 80 and 443 are`);
  }
  const found = literal ? [hostname] : await options.resolve(hostname, { signal: options.signal });
  if (found.length === 0) return null;
  // Which address it was is not said: the answer would tell anyone the service's inner names.
  const addresses = found.map((address) =>
    refuseUnlessPublic(address, `host "${hostname}" resolves to an address that is not public`)
  );
  const unique = [...new Set(addresses)];
  const v4 = unique.filter((address) => !address.includes(":"));
  const v6 = unique.filter((address) => address.includes(":"));
  return { hostname, port, tls, addresses: [...v4, ...v6] };
}

/** Resolves A and AAAA records with `Deno.resolveDns`; a type with no records counts as none. */
export async function resolveWithDns(
  hostname: string,
  options: { signal: AbortSignal },
): Promise<string[]> {
  const [v4, v6] = await Promise.all([
    lookup(hostname, "A", options.signal),
    lookup(hostname, "AAAA", options.signal),
  ]);
  return [...v4, ...v6];
}

async function lookup(
  hostname: string,
  type: "A" | "AAAA",
  signal: AbortSignal,
): Promise<string[]> {
  try {
    return await Deno.resolveDns(hostname, type, { signal });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

function refuseUnlessPublic(address: string, refusal: string): string {
  const dial = publicAddress(address);
  if (dial === null) throw new PreviewRefusedError("private", refusal);
  return dial;
}
