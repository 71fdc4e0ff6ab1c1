/**
 * The Prometheus text exposition format, version 0.0.4.
 * @module
 */
import type { Metrics } from "./registry.ts";

/** The `Content-Type` of a scrape. */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Figures read at scrape time rather than counted as they happen. */
export interface ScrapeTimeFigures {
  /** The running release. */
  version: string;
  /** Live links in the store, or `null` when the store did not answer (the sample is left out). */
  liveLinks: number | null;
  /** Whether the store answered the scrape's read. */
  storeUp: boolean;
  /** How long the oldest visit not yet written to the store may have waited, in seconds. */
  clicksWaitingSeconds: number;
}

/** The whole scrape: every series of `metrics` and the `readings`, as exposition text. */
export function renderMetrics(metrics: Metrics, readings: ScrapeTimeFigures): string {
  const text = new ExpositionText();
  text.family("lapse_build_info", { type: "gauge", help: "The running release; always 1." });
  text.sample("lapse_build_info", 1, { version: readings.version });

  text.family("lapse_http_requests_total", {
    type: "counter",
    help: "Requests answered, by matched route pattern, method and status.",
  });
  for (const { route, method, status, count } of metrics.requests.series()) {
    text.sample("lapse_http_requests_total", count, { route, method, status: String(status) });
  }

  const redirect = metrics.redirectSeconds.snapshot();
  text.family("lapse_redirect_duration_seconds", {
    type: "histogram",
    help: "Time to answer GET or HEAD /<slug>, whatever the answer, in seconds.",
  });
  redirect.bounds.forEach((bound, i) => {
    const le = formatNumber(bound);
    text.sample("lapse_redirect_duration_seconds_bucket", redirect.cumulative[i]!, { le });
  });
  text.sample("lapse_redirect_duration_seconds_bucket", redirect.count, { le: "+Inf" });
  text.sample("lapse_redirect_duration_seconds_sum", redirect.sum);
  text.sample("lapse_redirect_duration_seconds_count", redirect.count);

  text.counter("lapse_clicks_recorded_total", {
    help: "Clicks taken into the click buffer.",
    value: metrics.clicksRecorded.value,
  });
  text.counter("lapse_clicks_flushed_total", {
    help: "Clicks written from the click buffer to the store.",
    value: metrics.clicksFlushed.value,
  });
  text.family("lapse_clicks_waiting_seconds", {
    type: "gauge",
    help: "How long the oldest visit not yet written to the store has waited, in seconds; " +
      "0 when every visit is written. Click figures lag visits by at most this.",
  });
  text.sample("lapse_clicks_waiting_seconds", readings.clicksWaitingSeconds);

  text.family("lapse_rate_limited_total", {
    type: "counter",
    help: "Requests refused by a rate limit, by the limit's name.",
  });
  for (const [limit, count] of metrics.rateLimited.entries()) {
    text.sample("lapse_rate_limited_total", count, { limit });
  }

  text.counter("lapse_sweep_runs_total", {
    help: "Sweeps of expired links run to the end.",
    value: metrics.sweepRuns.value,
  });
  text.counter("lapse_swept_links_total", {
    help: "Expired links removed by sweeps.",
    value: metrics.sweptLinks.value,
  });

  text.family("lapse_live_links", {
    type: "gauge",
    help:
      "Links in the store, live or expired and not yet swept, read at scrape time; absent when the store did not answer.",
  });
  if (readings.liveLinks !== null) text.sample("lapse_live_links", readings.liveLinks);
  text.family("lapse_store_up", {
    type: "gauge",
    help: "Whether the store answered the scrape's read (1) or not (0).",
  });
  text.sample("lapse_store_up", readings.storeUp ? 1 : 0);
  return text.toString();
}

/** A label value escaped for the exposition format: backslash, double quote and line feed. */
export function escapeLabelValue(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");
}

/** A sample value as the exposition format writes it: `NaN`, `+Inf`, `-Inf` or a number. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/** Exposition text being written, line by line. */
class ExpositionText {
  readonly #lines: string[] = [];

  /** Starts a metric family with its `# HELP` and `# TYPE` lines. */
  family(name: string, about: { type: string; help: string }): void {
    const help = about.help.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
    this.#lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${about.type}`);
  }

  /** A counter family of one unlabelled sample. */
  counter(name: string, about: { help: string; value: number }): void {
    this.family(name, { type: "counter", help: about.help });
    this.sample(name, about.value);
  }

  /** One sample line. */
  sample(name: string, value: number, labels: Record<string, string> = {}): void {
    const pairs = Object.entries(labels).map(([key, text]) => `${key}="${escapeLabelValue(text)}"`);
    const labelText = pairs.length > 0 ? `{${pairs.join(",")}}` : "";
    this.#lines.push(`${name}${labelText} ${formatNumber(value)}`);
  }

  /** The text, ending with a line feed. */
  toString(): string {
    return this.#lines.join("\n") + "\n";
  }
}
