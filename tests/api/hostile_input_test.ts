import fc from "fast-check";
import { assert, assertEquals } from "../_helpers/assert.ts";
import { type TestApp, testApp } from "../_helpers/app.ts";
import {
  describeCase,
  type HostileCase,
  hostileCases,
  mountedEndpoints,
  type OpenApiLike,
  toRequest,
} from "../_helpers/hostile.ts";
import { importLegacyLinks } from "../../lib/links/mod.ts";
import type { LogLine } from "../../lib/log/mod.ts";
import { fakeNetwork, openTrap } from "../_helpers/network.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";

// Replay a run with LAPSE_FUZZ_SEED=<seed>; LAPSE_FUZZ_RUNS raises the count for a longer hunt.
const SEED = Number(Deno.env.get("LAPSE_FUZZ_SEED") ?? 20261109);
const RUNS = Number(Deno.env.get("LAPSE_FUZZ_RUNS") ?? 5000);
const DAY = 86_400_000;

/** Links the battery never names: nothing it sends may change or remove them. */
const KEPT: Record<string, string>[] = [
  { slug: "kept-q7Hn2Wx9Lp", url: "https://example.com/kept/one", title: "Kept \u202e one" },
  { slug: "kept-Zr4Tb8Mv1C", url: "https://example.org/?q=a&b=%20", title: "☃ ünïcode", note: "n" },
  { slug: "kept-Ws3Jd6Ye0K", url: "https://example.net/kept", pass: "kept secret" },
  { slug: "kept-Bx5Gu1Qa7R", url: "https://example.com/kept/clicked", title: "" },
  { slug: "kept-Nc9Vh2Lf4D", url: "http://example.com/kept/http" },
];

/** Links the battery aims at, and may unlock, visit, remove or claim again. */
const FIXTURES = [
  "fixture-open",
  "fixture-locked",
  "fixture-expired",
  "Fixture-Case",
  "ab",
  "fixture-twice",
];

interface Tally {
  cases: number;
  byStatus: Map<number, number>;
  byTarget: Map<string, number>;
  limited: number;
  /** Per-link stats answered with a link's figures. */
  linkFigures: number;
  violations: string[];
}

async function seed(t: TestApp): Promise<void> {
  const make = async (body: Record<string, unknown>) => {
    const res = await t.json("/api/create", body, { client: "198.51.100.1" });
    assertEquals(res.status, 201, JSON.stringify(await res.json()));
  };
  await make({ url: "example.com/expired", slug: "fixture-expired" });
  t.advance(8 * DAY);
  await make({ url: "example.com/open", slug: "fixture-open" });
  await make({ url: "example.com/locked", slug: "fixture-locked", pass: "hunter2" });
  await make({ url: "example.com/case", slug: "Fixture-Case" });
  // Opens for two people: the battery's visits may use it up, which retires it.
  await make({ url: "example.com/twice", slug: "fixture-twice", maxVisits: 2 });
  const legacy = { ab: { url: "example.com/legacy", clicks: "many" } };
  await importLegacyLinks(t.store, legacy, { serviceHost: t.config.serviceHost });
  for (const link of KEPT) await make(link);
  for (let i = 0; i < 3; i++) {
    const visit = await t.request(`/${KEPT[3]!.slug!}`, { headers: { "User-Agent": DESKTOP_UA } });
    assertEquals(visit.status, 302);
  }
  await t.deps.clicks.flush();
}

/** What the API says of the kept links: their list entries and their unshorten answers. */
async function keptState(t: TestApp): Promise<unknown[]> {
  const list = await t.request("/api/links", {}, "198.51.100.2");
  assertEquals(list.status, 200);
  const entries = (await list.json()) as { slug: string }[];
  const state: unknown[] = [];
  for (const { slug } of KEPT) {
    const unshorten = await t.request(`/api/unshorten?slug=${slug}`);
    assertEquals(unshorten.status, 200, slug);
    const head = await t.request(`/${slug}`, { method: "HEAD" });
    state.push({
      entry: entries.find((entry) => entry.slug === slug) ?? null,
      unshorten: await unshorten.json(),
      redirect: [head.status, head.headers.get("location")],
    });
  }
  return state;
}

/** Whether the service treats `request` as a browser's form navigation, as `negotiate.ts` does. */
function isBrowserForm(request: Request): boolean {
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  const form = type.startsWith("application/x-www-form-urlencoded") ||
    type.startsWith("multipart/form-data");
  return form && (request.headers.get("accept") ?? "").includes("text/html");
}

/** Checks one answer; returns what is wrong with it. */
async function judge(request: Request, res: Response): Promise<string[]> {
  const wrong: string[] = [];
  const body = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder().decode(body);
  const path = new URL(request.url).pathname;
  const api = path === "/api" || path.startsWith("/api/");
  if (res.status >= 500) wrong.push(`status ${res.status}: ${text.slice(0, 300)}`);
  if (res.headers.get("access-control-allow-origin") !== "*") wrong.push("no CORS header");
  if (!res.headers.get("access-control-expose-headers")?.includes("RateLimit-Remaining")) {
    wrong.push("no exposed headers");
  }
  if (text.includes('"compilerOptions"')) wrong.push("served a file outside static/");
  // Check answers every request with a slug parameter, whatever the slug.
  const url = new URL(request.url);
  if (
    path === "/api/check" && ["GET", "HEAD"].includes(request.method) &&
    url.searchParams.has("slug") && res.status !== 200
  ) wrong.push(`check answered ${res.status}`);
  // One rule for every form: a 303 only for a browser's form post. A link's own POST (its Open
  // button) is no form endpoint: it answers 303 to its destination for every client.
  const opensLink = request.method === "POST" && /^\/[^/]+$/.test(path) && !api;
  if (res.status === 303 && !isBrowserForm(request) && !opensLink) {
    wrong.push("303 to a client not a browser");
  }
  if (res.status === 429 && !/^\d+$/.test(res.headers.get("retry-after") ?? "")) {
    wrong.push("429 without Retry-After");
  }
  // A browser's plain form post is answered with its form's page by design (docs/api.md, Pages).
  if (api && res.status >= 400 && !isBrowserForm(request)) {
    const type = res.headers.get("content-type") ?? "";
    if (!type.startsWith("application/json")) wrong.push(`error as ${type}`);
    if (request.method !== "HEAD") {
      let error: unknown;
      try {
        error = JSON.parse(text).error;
      } catch {
        error = undefined;
      }
      if (typeof error !== "string" || error === "") wrong.push(`error body ${text.slice(0, 200)}`);
      if (res.status === 429 && !String(error).includes("rate limit")) {
        wrong.push(`429 says ${String(error)}`);
      }
    }
  }
  // One link's figures never hold a destination, protected or not.
  if (
    path === "/api/stats" && res.status === 200 && new URL(request.url).searchParams.has("slug")
  ) {
    // Referrers are hosts alone, so a destination's path can only come from the link itself.
    if (/example\.(com|org|net)\/|"url"/.test(text)) {
      wrong.push(`per-link stats name a destination: ${text.slice(0, 200)}`);
    }
  }
  return wrong;
}

/** Runs `work` with the console's output going to `printed` instead. */
async function withConsole<T>(printed: string[], work: () => Promise<T>): Promise<T> {
  const saved = { log: console.log, warn: console.warn, error: console.error };
  const keep = (...args: unknown[]) => void printed.push(args.map(String).join(" "));
  Object.assign(console, { log: keep, warn: keep, error: keep });
  try {
    return await work();
  } finally {
    Object.assign(console, saved);
  }
}

async function runBattery(t: TestApp, cases: HostileCase[]): Promise<Tally> {
  const tally: Tally = {
    cases: 0,
    byStatus: new Map(),
    byTarget: new Map(),
    limited: 0,
    linkFigures: 0,
    violations: [],
  };
  for (const [index, hostile] of cases.entries()) {
    const request = toRequest(hostile, t.config.baseUrl);
    let wrong: string[];
    let status = 0;
    try {
      const res = await t.send(request, hostile.client);
      status = res.status;
      wrong = await judge(request, res);
    } catch (error) {
      wrong = [`threw ${error instanceof Error ? error.stack : error}`];
    }
    tally.cases++;
    tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
    tally.byTarget.set(hostile.target, (tally.byTarget.get(hostile.target) ?? 0) + 1);
    if (status === 429) tally.limited++;
    const sent = new URL(request.url);
    if (status === 200 && sent.pathname === "/api/stats" && sent.searchParams.has("slug")) {
      tally.linkFigures++;
    }
    for (const problem of wrong) {
      tally.violations.push(`#${index} ${problem}\n    ${describeCase(hostile)}`);
    }
  }
  return tally;
}

Deno.test("5,000 hostile requests to every mounted route get no 5xx, JSON errors and CORS, and lose no link", async () => {
  await using trap = openTrap();
  const net = fakeNetwork({ names: {}, routes: {}, fallback: trap.port });
  const logged: LogLine[] = [];
  await using t = await testApp({
    preview: { resolve: net.resolve, dial: net.dial },
    log: (line) => logged.push(line),
  });
  await seed(t);
  const before = await keptState(t);
  const document = (await (await t.request("/api/openapi.json")).json()) as OpenApiLike;
  const endpoints = mountedEndpoints(t.app, document);
  for (const expected of ["POST /api/create", "GET /:slug", "POST /links/remove", "GET /stats"]) {
    assert(endpoints.some((e) => `${e.method} ${e.path}` === expected), expected);
  }
  const cases = fc.sample(
    hostileCases({ endpoints, slugs: FIXTURES, sharedClients: ["203.0.113.7", "::1"] }),
    { seed: SEED, numRuns: RUNS },
  );
  const started = performance.now();
  const printed: string[] = [];
  const tally = await withConsole(printed, () => runBattery(t, cases));
  const seconds = (performance.now() - started) / 1000;
  const failures = logged.filter((line) => line.level !== "info");
  const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
  const fiveHundreds = [...tally.byStatus].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  console.log(
    `hostile input: ${tally.cases} cases (seed ${SEED}) over ${endpoints.length} endpoints ` +
      `in ${seconds.toFixed(1)} s; 5xx: ${fiveHundreds}; 429: ${tally.limited}; ` +
      `statuses ${statuses.join(" ")}`,
  );
  assert(
    tally.violations.length === 0,
    `seed ${SEED}: ${tally.violations.length} violations, first ones:\n` +
      tally.violations.slice(0, 15).join("\n"),
  );
  assertEquals(printed, [], "the app printed to the console rather than logging");
  assertEquals(failures, [], "the app logged failures");
  assert(tally.cases >= 2000, `only ${tally.cases} cases`);
  assert(tally.limited > 0, "no case reached a rate limit");
  assert(tally.linkFigures > 0, "no case read a link's figures");
  for (const endpoint of endpoints) {
    const target = `${endpoint.method} ${endpoint.path}`;
    assert((tally.byTarget.get(target) ?? 0) >= 20, `${target} got few cases`);
  }

  // Healthy afterwards, and nothing stored before the battery is lost.
  await t.deps.clicks.flush();
  assertEquals(t.deps.clicks.pending, 0);
  assertEquals((await t.request("/api/health")).status, 200);
  const created = await t.json("/api/create", { url: "example.com/after", slug: "after-battery" });
  assertEquals(created.status, 201);
  const redirect = await t.request("/after-battery");
  assertEquals([redirect.status, redirect.headers.get("location")], [
    302,
    "https://example.com/after",
  ]);
  assertEquals(await keptState(t), before);
  const links = (await (await t.request("/api/links", {}, "198.51.100.3")).json()) as unknown[];
  const stats = await (await t.request("/api/stats", {}, "198.51.100.3")).json();
  const exported = await (await t.request("/api/export", {}, "198.51.100.3")).text();
  assertEquals(stats.links, links.length);
  assertEquals(exported.split("\n").filter(Boolean).length, links.length);
});
