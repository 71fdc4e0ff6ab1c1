import { assert, assertEquals } from "../_helpers/assert.ts";
import { testApp } from "../_helpers/app.ts";
import { BOT_UA, DESKTOP_UA } from "../../testing/visits.ts";

const WEEK = 7 * 86_400_000;

/** One sample line of a scrape. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A scrape, read line by line: `# HELP`, `# TYPE` and `name{labels} value` lines. */
interface Scrape {
  help: Map<string, string>;
  types: Map<string, string>;
  samples: Sample[];
}

function parseExposition(text: string): Scrape {
  const scrape: Scrape = { help: new Map(), types: new Map(), samples: [] };
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment) {
      (comment[1] === "HELP" ? scrape.help : scrape.types).set(comment[2]!, comment[3]!);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = value!.replace(/\\(.)/g, (_, char) => (char === "n" ? "\n" : char));
    }
    const value = sample[3] === "+Inf" ? Infinity : Number(sample[3]);
    scrape.samples.push({ name: sample[1]!, labels, value });
  }
  return scrape;
}

/** The value of the sample `name` whose labels include `labels`; `undefined` when none. */
function valueOf(scrape: Scrape, name: string, labels: Record<string, string> = {}) {
  return scrape.samples.find((sample) =>
    sample.name === name &&
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  )?.value;
}

async function scrape(request: (path: string) => Promise<Response>): Promise<Scrape> {
  const res = await request("/metrics");
  assertEquals(res.status, 200);
  return parseExposition(await res.text());
}

Deno.test("GET /metrics answers the Prometheus text format, never cached nor rate limited", async () => {
  await using t = await testApp();
  const res = await t.request("/metrics");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  assertEquals(res.headers.get("cache-control"), "no-store");
  assertEquals(res.headers.get("ratelimit-limit"), null);
  const scraped = parseExposition(await res.text());
  assert(scraped.samples.length > 10);
  for (const { name } of scraped.samples) {
    const family = name.replace(/_(bucket|sum|count)$/, "");
    assert(scraped.types.has(name) || scraped.types.has(family), `${name} has no TYPE`);
    assert(scraped.help.has(name) || scraped.help.has(family), `${name} has no HELP`);
  }
  assertEquals(scraped.types.get("lapse_redirect_duration_seconds"), "histogram");
  assertEquals(valueOf(scraped, "lapse_build_info", { version: "1.1.0" }), 1);
});

Deno.test("requests are counted by route pattern and status, never by raw path", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "hello" });
  await t.json("/api/create", { url: "example.com", slug: "hello" });
  for (const path of ["/hello", "/hello", "/nothing-here"]) await (await t.request(path)).text();
  await (await t.request("/hello", { method: "HEAD" })).text();
  const scraped = await scrape(t.request);
  const requests = (labels: Record<string, string>) =>
    valueOf(scraped, "lapse_http_requests_total", labels);
  assertEquals(requests({ route: "/api/create", method: "POST", status: "201" }), 1);
  assertEquals(requests({ route: "/api/create", method: "POST", status: "409" }), 1);
  assertEquals(requests({ route: "/:slug", method: "GET", status: "302" }), 2);
  assertEquals(requests({ route: "/:slug", method: "GET", status: "404" }), 1);
  assertEquals(requests({ route: "/:slug", method: "HEAD", status: "302" }), 1);
  const routes = scraped.samples.map((sample) => sample.labels.route).filter(Boolean);
  assert(!routes.includes("/hello") && !routes.includes("/nothing-here"), routes.join(", "));
  // Every answer of the redirect route is observed: three GETs and a HEAD.
  assertEquals(valueOf(scraped, "lapse_redirect_duration_seconds_count"), 4);
  const buckets = scraped.samples.filter((s) =>
    s.name === "lapse_redirect_duration_seconds_bucket"
  );
  assertEquals(buckets.at(-1)?.labels.le, "+Inf");
  assertEquals(buckets.at(-1)?.value, 4);
  for (let i = 1; i < buckets.length; i++) assert(buckets[i]!.value >= buckets[i - 1]!.value);
});

Deno.test("rate-limit refusals are counted by the limit's name", async () => {
  await using t = await testApp();
  for (let i = 0; i < 7; i++) await (await t.json("/api/bulk", { urls: ["example.com"] })).text();
  const scraped = await scrape(t.request);
  assertEquals(valueOf(scraped, "lapse_rate_limited_total", { limit: "bulk" }), 2);
  assertEquals(valueOf(scraped, "lapse_rate_limited_total", { limit: "create" }), 0);
  assertEquals(valueOf(scraped, "lapse_rate_limited_total", { limit: "unlock_link" }), 0);
});

Deno.test("refusals by the unlock guesses' limit are counted too", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com", slug: "vault", pass: "right" });
  const guess = (pass: string) =>
    t.json("/api/unlock", { slug: "vault", pass }, { client: "198.51.100.0" });
  for (let i = 0; i < 5; i++) assertEquals((await guess("wrong")).status, 403);
  assertEquals((await guess("right")).status, 429);
  const scraped = await scrape(t.request);
  assertEquals(valueOf(scraped, "lapse_rate_limited_total", { limit: "unlock_link" }), 1);
  assertEquals(valueOf(scraped, "lapse_rate_limited_total", { limit: "unlock" }), 0);
});

Deno.test("a sweep run is counted once, with the links it removed", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "old-a" });
  await t.json("/api/create", { url: "example.com/b", slug: "old-b" });
  t.advance(WEEK);
  await (await t.json("/api/sweep", {})).text(); // refused: no confirmation
  const run = await t.json("/api/sweep", { confirm: "sweep" });
  assertEquals((await run.json()).swept, 2);
  const scraped = await scrape(t.request);
  assertEquals(valueOf(scraped, "lapse_sweep_runs_total"), 1);
  assertEquals(valueOf(scraped, "lapse_swept_links_total"), 2);
});

Deno.test("live links are read from the store at scrape time; a down store never fails the scrape", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a" });
  await t.json("/api/create", { url: "example.com/b" });
  const before = await scrape(t.request);
  assertEquals(valueOf(before, "lapse_live_links"), 2);
  assertEquals(valueOf(before, "lapse_store_up"), 1);
  t.store.kv.close();
  const after = await scrape(t.request);
  assertEquals(valueOf(after, "lapse_live_links"), undefined);
  assertEquals(valueOf(after, "lapse_store_up"), 0);
});

Deno.test("the click counters follow the click buffer: recorded on the redirect, flushed after", async () => {
  await using t = await testApp();
  await t.json("/api/create", { url: "example.com/a", slug: "counted" });
  const before = await scrape(t.request);
  assertEquals(valueOf(before, "lapse_clicks_recorded_total"), 0);
  assertEquals(valueOf(before, "lapse_clicks_flushed_total"), 0);
  assertEquals(valueOf(before, "lapse_clicks_waiting_seconds"), 0);
  await t.request("/counted", { headers: { "User-Agent": DESKTOP_UA } });
  t.advance(700);
  await t.request("/counted", { headers: { "User-Agent": BOT_UA } });
  await t.request("/counted", { method: "HEAD" });
  t.advance(800);
  const recorded = await scrape(t.request);
  assertEquals(valueOf(recorded, "lapse_clicks_recorded_total"), 2);
  assertEquals(valueOf(recorded, "lapse_clicks_flushed_total"), 0);
  assertEquals(valueOf(recorded, "lapse_clicks_waiting_seconds"), 1.5, "since the first visit");
  await t.deps.clicks.flush();
  const flushed = await scrape(t.request);
  assertEquals(valueOf(flushed, "lapse_clicks_flushed_total"), 2);
  assertEquals(valueOf(flushed, "lapse_clicks_waiting_seconds"), 0);
});

Deno.test("each app keeps its own figures", async () => {
  await using first = await testApp();
  await using second = await testApp();
  await (await first.request("/api/version")).text();
  const route = { route: "/api/version", method: "GET", status: "200" };
  assertEquals(valueOf(await scrape(first.request), "lapse_http_requests_total", route), 1);
  assertEquals(
    valueOf(await scrape(second.request), "lapse_http_requests_total", route),
    undefined,
  );
});
