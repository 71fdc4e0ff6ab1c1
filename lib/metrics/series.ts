/**
 * The kinds of series the service keeps in memory: plain counters, counters by one label,
 * requests by route, method and status, and a histogram. Recording a value only adds to numbers
 * already allocated (after a label's first use); text is made only when scraped.
 * @module
 */

/** A number that only goes up. */
export class Counter {
  #value = 0;

  /** Adds `amount` (default 1); a negative or non-finite amount is ignored. */
  inc(amount = 1): void {
    if (amount > 0 && Number.isFinite(amount)) this.#value += amount;
  }

  /** The current count. */
  get value(): number {
    return this.#value;
  }
}

/** Options of {@linkcode LabelledCounter}. */
export interface LabelledCounterOptions {
  /** Label values shown as 0 before their first use. */
  known?: readonly string[];
}

/** Counters by the value of one label, such as a rate limit's name. */
export class LabelledCounter {
  readonly #values = new Map<string, number>();

  /** Builds the counter of label `label`. */
  constructor(readonly label: string, options: LabelledCounterOptions = {}) {
    for (const value of options.known ?? []) this.#values.set(value, 0);
  }

  /** Adds `amount` (default 1) to the count of `value`. */
  inc(value: string, amount = 1): void {
    if (amount > 0 && Number.isFinite(amount)) {
      this.#values.set(value, (this.#values.get(value) ?? 0) + amount);
    }
  }

  /** The count of `value`; 0 when never counted. */
  get(value: string): number {
    return this.#values.get(value) ?? 0;
  }

  /** Every label value and its count, in first-use order. */
  entries(): IterableIterator<[string, number]> {
    return this.#values.entries();
  }
}

/** The methods counted by name; any other is counted as `OTHER`, so methods stay a small set. */
export const COUNTED_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
]);

/** One series of {@linkcode RequestCounter}. */
export interface RequestSeries {
  route: string;
  method: string;
  status: number;
  count: number;
}

/**
 * Requests by route pattern, method and status, kept as nested maps so that counting a request
 * builds no key: each level is looked up by a string or number the request already has.
 * Route patterns come from the app's routes, so their number is bounded.
 */
export class RequestCounter {
  readonly #routes = new Map<string, Map<string, Map<number, number>>>();

  /**
   * Counts one request answered with `status` by the route of pattern `route`. The arguments
   * are positional, not an options object, so that counting allocates nothing.
   */
  inc(route: string, method: string, status: number): void {
    let methods = this.#routes.get(route);
    if (methods === undefined) {
      methods = new Map();
      this.#routes.set(route, methods);
    }
    const name = COUNTED_METHODS.has(method) ? method : "OTHER";
    let statuses = methods.get(name);
    if (statuses === undefined) {
      statuses = new Map();
      methods.set(name, statuses);
    }
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }

  /** The count of one series; 0 when never counted. */
  get(route: string, method: string, status: number): number {
    return this.#routes.get(route)?.get(method)?.get(status) ?? 0;
  }

  /** Every series with its count. */
  *series(): Generator<RequestSeries> {
    for (const [route, methods] of this.#routes) {
      for (const [method, statuses] of methods) {
        for (const [status, count] of statuses) yield { route, method, status, count };
      }
    }
  }
}

/** What a histogram holds at one moment, with cumulative bucket counts. */
export interface HistogramSnapshot {
  /** Upper bounds of the buckets, ascending; the `+Inf` bucket is `count`. */
  bounds: readonly number[];
  /** Observations at or below each bound. */
  cumulative: number[];
  /** Sum of every observation. */
  sum: number;
  /** Number of observations. */
  count: number;
}

/** Observations sorted into fixed buckets, such as request durations in seconds. */
export class Histogram {
  readonly #bounds: readonly number[];
  readonly #counts: Float64Array;
  #sum = 0;
  #count = 0;

  /** Builds a histogram over ascending upper `bounds`. */
  constructor(bounds: readonly number[]) {
    this.#bounds = [...bounds].sort((a, b) => a - b);
    this.#counts = new Float64Array(this.#bounds.length);
  }

  /** Records one observation; a non-finite value is ignored. */
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    this.#sum += value;
    this.#count++;
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.#counts[i] = this.#counts[i]! + 1;
        return;
      }
    }
  }

  /** The buckets, cumulative as the exposition format wants them. */
  snapshot(): HistogramSnapshot {
    const cumulative: number[] = [];
    let running = 0;
    for (const count of this.#counts) cumulative.push(running += count);
    return { bounds: this.#bounds, cumulative, sum: this.#sum, count: this.#count };
  }
}
