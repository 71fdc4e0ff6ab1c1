import { assert, assertEquals, assertStringIncludes } from "../../tests/_helpers/assert.ts";
import { escapeLabelValue, formatNumber, renderMetrics } from "./exposition.ts";
import { createMetrics } from "./mod.ts";

const READINGS = { version: "1.1.0", liveLinks: 3, storeUp: true, clicksWaitingSeconds: 0.25 };

Deno.test("every family of a scrape has HELP and TYPE lines before its samples", () => {
  const text = renderMetrics(createMetrics(), READINGS);
  assert(text.endsWith("\n"));
  const declared = new Set<string>();
  for (const line of text.trimEnd().split("\n")) {
    const type = /^# TYPE (\S+) (counter|gauge|histogram)$/.exec(line);
    if (type) declared.add(type[1]!);
    if (line.startsWith("#")) continue;
    const name = /^([a-z_]+)/.exec(line)![1]!;
    const family = name.replace(/_(bucket|sum|count)$/, "");
    assert(declared.has(name) || declared.has(family), `${name} has no TYPE before it`);
  }
  for (
    const name of [
      "lapse_http_requests_total",
      "lapse_redirect_duration_seconds",
      "lapse_clicks_recorded_total",
      "lapse_clicks_flushed_total",
      "lapse_clicks_waiting_seconds",
      "lapse_rate_limited_total",
      "lapse_sweep_runs_total",
      "lapse_swept_links_total",
      "lapse_live_links",
      "lapse_store_up",
    ]
  ) {
    assert(declared.has(name), name);
  }
});

Deno.test("a scrape writes counts, histogram buckets and readings as samples", () => {
  const metrics = createMetrics({ rateLimits: ["create"] });
  metrics.requests.inc("/api/create", "POST", 201);
  metrics.redirectSeconds.observe(0.0007);
  metrics.clicksRecorded.inc(5);
  metrics.rateLimited.inc("create");
  const text = renderMetrics(metrics, READINGS);
  assertStringIncludes(
    text,
    'lapse_http_requests_total{route="/api/create",method="POST",status="201"} 1\n',
  );
  assertStringIncludes(text, 'lapse_redirect_duration_seconds_bucket{le="0.0005"} 0\n');
  assertStringIncludes(text, 'lapse_redirect_duration_seconds_bucket{le="0.001"} 1\n');
  assertStringIncludes(text, 'lapse_redirect_duration_seconds_bucket{le="+Inf"} 1\n');
  assertStringIncludes(text, "lapse_redirect_duration_seconds_count 1\n");
  assertStringIncludes(text, "lapse_clicks_recorded_total 5\n");
  assertStringIncludes(text, "lapse_clicks_flushed_total 0\n");
  assertStringIncludes(text, "lapse_clicks_waiting_seconds 0.25\n");
  assertStringIncludes(text, 'lapse_rate_limited_total{limit="create"} 1\n');
  assertStringIncludes(text, "lapse_live_links 3\n");
  assertStringIncludes(text, "lapse_store_up 1\n");
  assertStringIncludes(text, 'lapse_build_info{version="1.1.0"} 1\n');
});

Deno.test("a store that did not answer leaves the live-link sample out and says so", () => {
  const text = renderMetrics(createMetrics(), { ...READINGS, liveLinks: null, storeUp: false });
  assertStringIncludes(text, "# TYPE lapse_live_links gauge\n");
  assertEquals(/^lapse_live_links /m.test(text), false);
  assertStringIncludes(text, "lapse_store_up 0\n");
});

Deno.test("label values and special numbers are written as the format wants", () => {
  assertEquals(escapeLabelValue('a"b\\c\nd'), 'a\\"b\\\\c\\nd');
  assertEquals(formatNumber(NaN), "NaN");
  assertEquals(formatNumber(Infinity), "+Inf");
  assertEquals(formatNumber(0.0005), "0.0005");
});
