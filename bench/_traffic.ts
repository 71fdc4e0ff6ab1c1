/**
 * Traffic as browsers make it, for the redirect benchmarks: forty real browser User-Agents,
 * ten referrers (and none), and client addresses from a pool of 5,000, sent as
 * `X-Forwarded-For` to a service run with `TRUST_PROXY=1`; links visited evenly or by
 * popularity (Zipf).
 * @module
 */

const PLATFORMS = [
  ["Windows NT 10.0; Win64; x64", "desktop"],
  ["Macintosh; Intel Mac OS X 10_15_7", "desktop"],
  ["X11; Linux x86_64", "desktop"],
  ["Linux; Android 14; Pixel 8", "mobile"],
  ["Linux; Android 13; SM-S918B", "mobile"],
] as const;

/** Forty browser User-Agents: Chrome, Firefox, Edge and Safari of several versions and devices. */
export const BROWSER_USER_AGENTS: readonly string[] = [
  ...PLATFORMS.flatMap(([platform, kind]) =>
    [124, 125, 126, 127].map((v) =>
      `Mozilla/5.0 (${platform}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 ${
        kind === "mobile" ? "Mobile " : ""
      }Safari/537.36`
    )
  ),
  ...PLATFORMS.slice(0, 3).flatMap(([platform]) =>
    [125, 126, 127].map((v) => `Mozilla/5.0 (${platform}; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`)
  ),
  ...[16, 17].flatMap((v) => [
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v}_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v}.5 Mobile/15E148 Safari/604.1`,
    `Mozilla/5.0 (iPad; CPU OS ${v}_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v}.5 Mobile/15E148 Safari/604.1`,
    `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v}.5 Safari/605.1.15`,
  ]),
  ...[125, 126].map((v) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36 Edg/${v}.0.0.0`
  ),
];

/** Ten referrers, and none (a direct visit). */
export const REFERRERS: readonly string[] = [
  "",
  "https://www.google.com/",
  "https://news.ycombinator.com/item?id=1",
  "https://www.reddit.com/r/programming/",
  "https://t.co/abc",
  "https://www.facebook.com/",
  "https://mail.example.com/inbox",
  "https://www.linkedin.com/feed/",
  "https://duckduckgo.com/",
  "https://github.com/denoland/deno",
  "https://lobste.rs/",
];

/** Client addresses `X-Forwarded-For` names, 10.0.0.1 to 10.0.19.250. */
export const CLIENT_POOL = 5_000;

/** `paths` in an order of their own, the same each run. */
export function shuffled<T>(items: T[], seed = 1): T[] {
  const random = mulberry32(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * `count` visits to `paths` by popularity: the k-th most popular is visited in proportion to
 * 1/k^s (Zipf), drawn the same each run.
 */
export function zipfVisits(paths: string[], count: number, s = 1, seed = 7): string[] {
  const weights = paths.map((_, k) => 1 / (k + 1) ** s);
  const cumulative: number[] = [];
  let sum = 0;
  for (const weight of weights) cumulative.push(sum += weight);
  const random = mulberry32(seed);
  const ranked = shuffled(paths, seed); // popularity apart from the order of the store
  return Array.from({ length: count }, () => {
    const target = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return ranked[lo]!;
  });
}

/**
 * Writes a wrk script that cycles through `paths`, each request with a User-Agent, a
 * referrer and a client address drawn at random; returns its file name.
 */
export async function trafficScript(paths: string[]): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".lua" });
  const list = (values: readonly string[]) =>
    values.map((value) => JSON.stringify(value.replace(/[^ -~]/g, ""))).join(",\n");
  await Deno.writeTextFile(
    file,
    `local paths = {\n${list(paths.map((p) => p.replace(/[^A-Za-z0-9/_-]/g, "")))}\n}
local agents = {\n${list(BROWSER_USER_AGENTS)}\n}
local referrers = {\n${list(REFERRERS)}\n}
local i = 0
math.randomseed(42)
request = function()
  i = i + 1
  if i > #paths then i = 1 end
  local client = math.random(0, ${CLIENT_POOL - 1})
  local headers = {
    ["User-Agent"] = agents[math.random(#agents)],
    ["X-Forwarded-For"] = "10.0." .. math.floor(client / 250) .. "." .. (client % 250 + 1),
  }
  local referrer = referrers[math.random(#referrers)]
  if referrer ~= "" then headers["Referer"] = referrer end
  return wrk.format("GET", paths[i], headers)
end
`,
  );
  return file;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
