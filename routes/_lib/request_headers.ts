/**
 * Reading a few request headers without materializing `request.headers`.
 *
 * `Deno.serve` answers a handler's synchronous `Response` at once, unless the handler touched
 * `request.headers`: then the runtime copies the header list and finishes the request through a
 * promise, which costs the redirect about a fifth of its throughput (measured in
 * `docs/benchmarks.md`). The runtime's request object can also read one header at a time
 * straight from the parsed request; this module uses that where the runtime has it, and
 * `request.headers` everywhere else (other runtimes, tests' own `Request`s, a future Deno).
 * @module
 */

/** One header at a time: the value the request sent, or `null`. Names are lower case. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What the runtime keeps behind a served request, as far as this module relies on it. */
interface ServedRequest {
  header(name: string): string | null;
}

// The private slot of a served request that holds the runtime's side of it, once found. A
// request that is not a served one (built by a test, say) has no such slot to find.
let slot: symbol | undefined;

function servedRequestOf(request: Request): ServedRequest | null {
  slot ??= Object.getOwnPropertySymbols(request).find((symbol) =>
    symbol.description === "request" && isServedRequest(Reflect.get(request, symbol))
  );
  if (slot === undefined) return null;
  const served = Reflect.get(request, slot);
  return isServedRequest(served) ? served : null;
}

function isServedRequest(value: unknown): value is ServedRequest {
  return typeof value === "object" && value !== null &&
    typeof (value as { header?: unknown }).header === "function";
}

/**
 * A reader of `request`'s headers. On a request served by `Deno.serve` it reads one header at
 * a time from the runtime, leaving `request.headers` untouched; anything else is read through
 * `request.headers`. Read before the response is returned: a served request forgets its headers
 * once answered.
 */
export function headersOf(request: Request): HeaderReader {
  return servedHeadersOf(request) ?? request.headers;
}

/**
 * The one-at-a-time reader of a request served by `Deno.serve`, or `null` for any other
 * request (built by a test, served by another runtime).
 */
export function servedHeadersOf(request: Request): HeaderReader | null {
  const served = servedRequestOf(request);
  if (served === null) return null;
  return {
    get(name) {
      return served.header(name) ?? null;
    },
  };
}

/** Whether {@linkcode headersOf} reads `request` one header at a time from the runtime. */
export function readsSingleHeaders(request: Request): boolean {
  return servedRequestOf(request) !== null;
}
