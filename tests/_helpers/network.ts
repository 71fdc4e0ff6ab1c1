/**
 * A fake network for preview tests: names resolve as the test says, and every connection is
 * recorded and sent to a local server instead of the address asked for, so the same pinned code
 * path runs without the internet, and production never needs to reach loopback.
 * @module
 */
import type { Dialer, Resolver } from "../../lib/preview/mod.ts";

/** A public-looking address the fake network routes to a local server. */
export const PUBLIC_ADDRESS = "93.184.216.34";

/** What a name resolves to: a fixed list, or a function called on every lookup. */
export type FakeAnswer = string[] | ((lookup: number) => string[]);

/** Options of {@linkcode fakeNetwork}. */
export interface FakeNetworkOptions {
  /** Names and their addresses; an unknown name has none. */
  names: Record<string, FakeAnswer>;
  /** Addresses and the local port each really reaches; any other address goes to `fallback`. */
  routes: Record<string, number>;
  /** Port every unrouted address reaches (a trap, or a closed port). */
  fallback: number;
}

/** The fake network and what happened on it. */
export interface FakeNetwork {
  resolve: Resolver;
  dial: Dialer;
  /** Every name looked up, in order. */
  lookups: string[];
  /** Every address dialled, as `address:port`, in order. */
  dials: string[];
}

/** Builds a fake network. */
export function fakeNetwork(options: FakeNetworkOptions): FakeNetwork {
  const lookups: string[] = [];
  const dials: string[] = [];
  return {
    lookups,
    dials,
    resolve(hostname) {
      const answer = options.names[hostname] ?? [];
      const count = lookups.filter((name) => name === hostname).length;
      lookups.push(hostname);
      return Promise.resolve(typeof answer === "function" ? answer(count) : answer);
    },
    dial(address, port) {
      dials.push(`${address}:${port}`);
      const local = options.routes[address] ?? options.fallback;
      return Deno.connect({ hostname: "127.0.0.1", port: local });
    },
  };
}

/** A listener on 127.0.0.1 that counts the connections it accepts. */
export interface Trap extends AsyncDisposable {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
}

/** Opens a {@linkcode Trap} on a random port. */
export function openTrap(): Trap {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  const loop = (async () => {
    try {
      for await (const conn of listener) {
        accepted++;
        conn.close();
      }
    } catch {
      // The listener was closed.
    }
  })();
  return {
    port: listener.addr.port,
    accepted: () => accepted,
    async [Symbol.asyncDispose]() {
      listener.close();
      await loop;
    },
  };
}

/** A port nothing listens on. */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return port;
}

/** A raw TCP server answering each connection with `answer`, for byte-exact responses. */
export interface RawServer extends AsyncDisposable {
  port: number;
}

/**
 * Serves `answer` on 127.0.0.1: it gets each connection after its request head was read (and
 * the head itself); the connection is closed when `answer` settles.
 */
export function rawServer(answer: (conn: Deno.Conn, head: string) => Promise<void>): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const handling = new Set<Promise<void>>();
  const loop = (async () => {
    try {
      for await (const conn of listener) {
        const task = (async () => {
          try {
            await answer(conn, await readRequestHead(conn));
          } catch {
            // The client went away; that is the point of some tests.
          } finally {
            try {
              conn.close();
            } catch {
              // Already closed.
            }
          }
        })();
        handling.add(task);
        task.finally(() => handling.delete(task));
      }
    } catch {
      // The listener was closed.
    }
  })();
  return {
    port: listener.addr.port,
    async [Symbol.asyncDispose]() {
      listener.close();
      await loop;
      await Promise.all(handling);
    },
  };
}

/** Writes `text` (or bytes) to `conn` completely. */
export async function writeAll(conn: Deno.Conn, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  for (let offset = 0; offset < bytes.length;) offset += await conn.write(bytes.subarray(offset));
}

/** Waits until the client closes `conn` (or it fails). */
export async function untilClosed(conn: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(1024);
  while ((await conn.read(buffer)) !== null) { /* drain */ }
}

async function readRequestHead(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(8192);
  let head = "";
  while (!head.includes("\r\n\r\n")) {
    const count = await conn.read(buffer);
    if (count === null) break;
    head += new TextDecoder().decode(buffer.subarray(0, count));
  }
  return head;
}

/** Bytes of `text`, one byte per character code (for legacy single-byte encodings). */
export function bytesOf(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(text, (char) => char.charCodeAt(0) & 0xff);
}
