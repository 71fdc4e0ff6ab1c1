/**
 * A small HTTP/1.1 client pinned to checked addresses: it dials an address {@linkcode checkTarget}
 * approved and starts TLS there under the host name, so a DNS answer that changes after the
 * check changes nothing (docs/decisions/2026-11-21-preview-pinned-connection.md).
 * @module
 */
import { concatBytes } from "../bytes.ts";
import type { Target } from "./target.ts";

/** Opens a TCP connection to a checked `address` (an IP literal) and `port`. */
export type Dialer = (address: string, port: number) => Promise<Deno.TcpConn>;

/** The page could not be had: no answer, a broken answer, a failed handshake, a timeout. */
export class UnreachableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UnreachableError";
  }
}

/** The head of a response and a way to read its body. */
export interface PageResponse {
  /** The final (non-1xx) status code. */
  status: number;
  /** Header fields by lower-case name; repeated fields joined with `", "`. */
  headers: ReadonlyMap<string, string>;
  /** The body as sent, de-chunked; ends where the framing says, or when the server closes. */
  body: AsyncIterable<Uint8Array>;
  /** Closes the connection; safe to call more than once. */
  close(): void;
}

/** Options of {@linkcode openPage}. */
export interface OpenPageOptions {
  /** Opens the TCP connection. */
  dial: Dialer;
  /** Aborts everything: the dial, the handshake, every read. Its reason is what is thrown. */
  signal: AbortSignal;
  /** Extra trusted root certificates (PEM), for tests; the system's roots are used anyway. */
  caCerts?: string[];
}

/** The `User-Agent` sent with every preview request. */
export const PREVIEW_USER_AGENT = "lapse-preview/1.1";

/** Longest response head read, status line and fields together. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Longest chunk-size line read in a chunked body. */
const MAX_CHUNK_LINE = 1024;
const READ_SIZE = 16 * 1024;
const latin1 = new TextDecoder("latin1");

/** Dials with `Deno.connect`, to the address given and nothing else. */
export function dialWithDeno(address: string, port: number): Promise<Deno.TcpConn> {
  return Deno.connect({ hostname: address, port });
}

/**
 * Sends `GET url` to one of `target`'s checked addresses and reads the response head. The
 * caller reads the body, then calls `close()`.
 *
 * Rejects with {@linkcode UnreachableError}, or with the signal's reason once it aborts.
 */
export async function openPage(
  url: URL,
  target: Target,
  options: OpenPageOptions,
): Promise<PageResponse> {
  const { signal } = options;
  const tcp = await connect(target, options);
  let conn: Deno.Conn = tcp;
  const close = () => {
    signal.removeEventListener("abort", close);
    try {
      conn.close();
    } catch {
      // Already closed, by the server or an earlier call.
    }
  };
  // Closing the socket is what makes a pending read give up when time runs out.
  signal.addEventListener("abort", close, { once: true });
  try {
    if (target.tls) {
      const handshake = Deno.startTls(tcp, {
        hostname: target.hostname,
        caCerts: options.caCerts,
      });
      const tls = await io(handshake, signal, "the TLS handshake failed", (late) => late.close());
      conn = tls;
      // Deno defers the handshake to the first write; doing it now names the failure right.
      await io(tls.handshake(), signal, "the TLS handshake failed");
    }
    await writeAll(conn, requestHead(url), signal);
    const reader = new ByteReader(conn, signal);
    const { status, headers } = await readHead(reader);
    return { status, headers, body: readBody(reader, status, headers), close };
  } catch (error) {
    close();
    throw error;
  }
}

async function connect(target: Target, options: OpenPageOptions): Promise<Deno.TcpConn> {
  let failure: unknown;
  for (const address of target.addresses) {
    try {
      return await io(
        options.dial(address, target.port),
        options.signal,
        `could not connect to ${address}`,
        (conn) => conn.close(),
      );
    } catch (error) {
      if (options.signal.aborted) throw error;
      failure = error;
    }
  }
  throw new UnreachableError(`could not connect to ${target.hostname}`, { cause: failure });
}

function requestHead(url: URL): Uint8Array {
  const path = `${url.pathname}${url.search}`;
  // The URL parser percent-encodes everything else; this keeps the request line intact.
  if (!/^\/[\x21-\x7e]*$/.test(path)) throw new UnreachableError("the path cannot be sent");
  const lines = [
    `GET ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    `User-Agent: ${PREVIEW_USER_AGENT}`,
    "Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
    "Accept-Encoding: identity",
    "Connection: close",
  ];
  return new TextEncoder().encode(`${lines.join("\r\n")}\r\n\r\n`);
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  for (let offset = 0; offset < bytes.length;) {
    offset += await io(conn.write(bytes.subarray(offset)), signal, "sending the request failed");
  }
}

async function readHead(
  reader: ByteReader,
): Promise<{ status: number; headers: Map<string, string> }> {
  let budget = MAX_HEAD_BYTES;
  const line = async () => {
    const text = await reader.readLine(budget);
    if (text === null) throw new UnreachableError("the server closed the connection early");
    budget -= text.length + 2;
    if (budget < 0) throw new UnreachableError("the response head is too large");
    return text;
  };
  for (;;) {
    const match = /^HTTP\/1\.[01] ([1-5]\d\d)(?: |$)/.exec(await line());
    if (!match) throw new UnreachableError("the server did not answer in HTTP/1.x");
    const status = Number(match[1]);
    const headers = new Map<string, string>();
    for (let field = await line(); field !== ""; field = await line()) {
      const colon = field.indexOf(":");
      if (colon <= 0) continue;
      const name = field.slice(0, colon).trim().toLowerCase();
      const value = field.slice(colon + 1).trim();
      const before = headers.get(name);
      headers.set(name, before === undefined ? value : `${before}, ${value}`);
    }
    if (status === 101) throw new UnreachableError("the server switched protocols");
    // 100 Continue, 103 Early Hints and the like come before the real answer.
    if (status >= 200) return { status, headers };
  }
}

async function* readBody(
  reader: ByteReader,
  status: number,
  headers: ReadonlyMap<string, string>,
): AsyncGenerator<Uint8Array> {
  if (status === 204 || status === 304) return;
  const coding = headers.get("transfer-encoding");
  if (coding !== undefined) {
    yield* /(?:^|,)\s*chunked\s*$/i.test(coding) ? readChunked(reader) : readToEnd(reader);
    return;
  }
  const length = headers.get("content-length");
  if (length === undefined) {
    yield* readToEnd(reader);
    return;
  }
  const values = new Set(length.split(",").map((value) => value.trim()));
  const [only] = values;
  if (values.size !== 1 || only === undefined || !/^\d{1,15}$/.test(only)) {
    throw new UnreachableError("the response has an invalid Content-Length");
  }
  yield* readExactly(reader, Number(only));
}

async function* readChunked(reader: ByteReader): AsyncGenerator<Uint8Array> {
  for (;;) {
    const line = await reader.readLine(MAX_CHUNK_LINE);
    if (line === null) return;
    const size = line.split(";")[0]?.trim() ?? "";
    if (!/^[0-9A-Fa-f]{1,12}$/.test(size)) {
      throw new UnreachableError("the response has an invalid chunk size");
    }
    const length = parseInt(size, 16);
    if (length === 0) return;
    yield* readExactly(reader, length);
    await reader.readLine(MAX_CHUNK_LINE);
  }
}

async function* readExactly(reader: ByteReader, length: number): AsyncGenerator<Uint8Array> {
  for (let left = length; left > 0;) {
    const part = await reader.read(left);
    if (part === null) return;
    left -= part.length;
    yield part;
  }
}

async function* readToEnd(reader: ByteReader): AsyncGenerator<Uint8Array> {
  for (let part = await reader.read(Infinity); part !== null; part = await reader.read(Infinity)) {
    yield part;
  }
}

/** Reads lines and bytes from a connection through one buffer. */
class ByteReader {
  #buffer = new Uint8Array(0);
  #ended = false;

  constructor(readonly conn: Deno.Conn, readonly signal: AbortSignal) {}

  /** One line without its line break, as latin1; `null` at the end; fails past `limit` bytes. */
  async readLine(limit: number): Promise<string | null> {
    for (;;) {
      const end = this.#buffer.indexOf(0x0a);
      if (end >= 0) {
        const line = this.#take(end + 1);
        return latin1.decode(line).replace(/\r?\n$/, "");
      }
      if (this.#buffer.length > limit) throw new UnreachableError("a response line is too long");
      if (!(await this.#fill())) {
        return this.#buffer.length === 0 ? null : latin1.decode(this.#take(this.#buffer.length));
      }
    }
  }

  /** Up to `max` bytes; `null` at the end. */
  async read(max: number): Promise<Uint8Array | null> {
    if (this.#buffer.length === 0 && !(await this.#fill())) return null;
    return this.#take(Math.min(max, this.#buffer.length));
  }

  #take(count: number): Uint8Array {
    const taken = this.#buffer.slice(0, count);
    this.#buffer = this.#buffer.subarray(count);
    return taken;
  }

  async #fill(): Promise<boolean> {
    if (this.#ended) return false;
    const chunk = new Uint8Array(READ_SIZE);
    const count = await io(this.conn.read(chunk), this.signal, "reading the response failed");
    if (count === null) {
      this.#ended = true;
      return false;
    }
    this.#buffer = concatBytes(this.#buffer, chunk.subarray(0, count));
    return true;
  }
}

/**
 * Awaits a network operation: its failure becomes an {@linkcode UnreachableError} saying
 * `failure`, and an abort rejects at once with the signal's reason (a value that arrives too
 * late goes to `discard`).
 */
export function io<T>(
  operation: Promise<T>,
  signal: AbortSignal,
  failure: string,
  discard?: (late: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      operation.then((late) => discard?.(late), () => {});
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    operation.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? signal.reason : new UnreachableError(failure, { cause: error }));
      },
    );
  });
}
