/**
 * The registry: every figure the service keeps about itself, in memory, one per app instance so
 * tests never see each other's counts.
 * @module
 */
import { Counter, Histogram, LabelledCounter, RequestCounter } from "./series.ts";

/** Upper bounds of the redirect latency buckets, in seconds: half a millisecond to a second. */
export const REDIRECT_BUCKETS: readonly number[] = [
  0.0005,
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
];

/** Every figure the service keeps about itself. */
export interface Metrics {
  /** Requests answered, by matched route pattern, method and status. */
  requests: RequestCounter;
  /** Time to answer `GET|HEAD /<slug>`, in seconds, whatever the answer. */
  redirectSeconds: Histogram;
  /** Clicks taken into the click buffer. */
  clicksRecorded: Counter;
  /** Clicks written from the buffer to the store. */
  clicksFlushed: Counter;
  /** Requests refused by a rate limit, by the limit's name. */
  rateLimited: LabelledCounter;
  /** Sweeps run to the end. */
  sweepRuns: Counter;
  /** Links removed by sweeps. */
  sweptLinks: Counter;
}

/** Options of {@linkcode createMetrics}. */
export interface MetricsOptions {
  /** Names of the rate limits, shown as 0 before their first refusal. */
  rateLimits?: readonly string[];
}

/** A fresh registry, every figure at 0. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  return {
    requests: new RequestCounter(),
    redirectSeconds: new Histogram(REDIRECT_BUCKETS),
    clicksRecorded: new Counter(),
    clicksFlushed: new Counter(),
    rateLimited: new LabelledCounter("limit", { known: options.rateLimits }),
    sweepRuns: new Counter(),
    sweptLinks: new Counter(),
  };
}

/** The `onSwept` callback that counts a finished sweep and the links it removed. */
export function countSweeps(metrics: Pick<Metrics, "sweepRuns" | "sweptLinks">) {
  return (swept: number): void => {
    metrics.sweepRuns.inc();
    metrics.sweptLinks.inc(swept);
  };
}
