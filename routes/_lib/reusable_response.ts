/**
 * Answering one response object to many requests, each time with its own value of one header.
 *
 * Building or copying a `Response` for every redirect costs the redirect about a tenth of its
 * throughput (docs/benchmarks.md): a copy makes a new header list, a `Headers` object and its
 * checks. A response with no body is not used up by being sent, and `Deno.serve` writes a
 * handler's synchronous answer out before the next request's handler runs; so one response per
 * link can be answered again and again, with the one header that differs (the request id) set
 * in its header list just before.
 *
 * That rests on the runtime reading the header list before another answer is handed out, which
 * is checked, not assumed: the list is read through an accessor that marks it read, and an
 * answer handed out while the one before is still unread turns the sharing off for good and
 * answers copies instead (as a runtime that finishes answers later would need). Where the
 * runtime's response keeps no header list this module can reach, every answer is a copy.
 * @module
 */

/** The runtime's side of a `Response`, as far as this module relies on it. */
interface InnerResponse {
  headerList: [string, string][];
}

// The private slot of a `Response` holding its header list, once found.
let slot: symbol | null | undefined;

function innerOf(response: Response): InnerResponse | null {
  slot ??=
    Object.getOwnPropertySymbols(response).find((symbol) =>
      isInner(Reflect.get(response, symbol))
    ) ?? null;
  if (slot === null) return null;
  const inner = Reflect.get(response, slot);
  return isInner(inner) ? inner : null;
}

function isInner(value: unknown): value is InnerResponse {
  return typeof value === "object" && value !== null &&
    Array.isArray((value as { headerList?: unknown }).headerList) &&
    Object.getOwnPropertyDescriptor(value, "headerList")?.writable === true;
}

/**
 * The responses of one server, and whether sharing them is still safe. Keep one per server:
 * its answers are checked against each other.
 */
export class ResponseReuse {
  #sharing = true;
  // Whether the last shared answer's header list has not been read by the runtime yet.
  #unread = false;

  /** Whether answers are still shared; false once an answer was found unread, or never. */
  get sharing(): boolean {
    return this.#sharing;
  }

  /**
   * A response of `status` and `headers` plus `varying`, whose value each answer sets.
   * Header names are lower case.
   */
  build(status: number, headers: Record<string, string>, varying: string): ReusableResponse {
    const template = new Response(null, { status, headers });
    const shared = new Response(null, { status, headers: { ...headers, [varying]: "" } });
    const inner = innerOf(shared);
    const pair = inner?.headerList.find(([name]) => name === varying);
    if (inner === null || pair === undefined) {
      return new ReusableResponse(this, template, varying, null);
    }
    const list = inner.headerList;
    Object.defineProperty(inner, "headerList", {
      configurable: true,
      enumerable: true,
      get: () => {
        this.#unread = false;
        return list;
      },
    });
    return new ReusableResponse(this, template, varying, { response: shared, pair });
  }

  /** Hands out `shared` with its varying header set to `value`, or null when that is not safe. */
  share(shared: SharedAnswer, value: string): Response | null {
    if (!this.#sharing) return null;
    if (this.#unread) {
      this.#sharing = false; // the runtime finishes answers later: copies from now on
      return null;
    }
    shared.pair[1] = value;
    this.#unread = true;
    return shared.response;
  }
}

/** A shared response, and the entry of its header list that each answer sets. */
interface SharedAnswer {
  response: Response;
  pair: [string, string];
}

/** One response answered many times, with its own value of one header each time. */
export class ReusableResponse {
  #reuse: ResponseReuse;
  #template: Response;
  #varying: string;
  #shared: SharedAnswer | null;

  /** Use {@linkcode ResponseReuse.build}. */
  constructor(
    reuse: ResponseReuse,
    template: Response,
    varying: string,
    shared: SharedAnswer | null,
  ) {
    this.#reuse = reuse;
    this.#template = template;
    this.#varying = varying;
    this.#shared = shared;
  }

  /**
   * The response with the varying header set to `value`. `served` says whether it goes
   * straight back to `Deno.serve`, which writes it out at once: only such an answer may be the
   * shared object. Anything else (an in-process request, a test) gets a copy of its own.
   * `value` must already be a valid header value: the shared answer takes it as it is, without
   * the checks `Headers.set` makes (the redirect's request ids are checked when made).
   */
  answer(value: string, served: boolean): Response {
    if (served && this.#shared !== null) {
      const shared = this.#reuse.share(this.#shared, value);
      if (shared !== null) return shared;
    }
    const copy = this.#template.clone();
    copy.headers.set(this.#varying, value);
    return copy;
  }
}
