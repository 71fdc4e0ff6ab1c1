/**
 * Traffic as browsers make it, for the redirect benchmarks: forty real browser User-Agents,
 * ten referrers (and none), and client addresses (from a pool of 5,000, one fixed, or a new
 * public one each request) sent as `X-Forwarded-For` to a service run with `TRUST_PROXY=1`;
 * links visited evenly or by popularity (Zipf).
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

/**
 * Where a load's client addresses come from: a pool of {@linkcode CLIENT_POOL} private ones,
 * the one {@linkcode FIXED_CLIENT}, or a new public one each request ({@linkcode newClient}).
 */
export type Clients = "pool" | "one" | "new";

/** The one client of a load whose visits all come from one public address (GB). */
export const FIXED_CLIENT = "81.2.69.160";

/** The share of new clients that have an IPv4 address; the others have an IPv6 one. */
export const IPV4_SHARE = 0.7;

/**
 * IPv4 ranges no public client has, first and last address as numbers: this network, private,
 * shared (CGNAT), loopback, link-local, protocol assignments, documentation, 6to4 relay,
 * benchmarking, multicast and reserved (RFC 6890).
 */
export const RESERVED_IPV4: readonly (readonly [number, number])[] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 3], // multicast and reserved, to 255.255.255.255
].map(([base, bits]) => {
  const first = (base as string).split(".").reduce((sum, part) => sum * 256 + Number(part), 0);
  return [first, first + 2 ** (32 - (bits as number)) - 1] as const;
});

/**
 * /32s of IPv6 space that ISPs hand to their customers: Deutsche Telekom (DE), Comcast (US),
 * Free (FR), Reliance Jio (IN), China Telecom (CN), Claro (BR), BT (GB), NTT (JP); the
 * countries are the database's.
 */
export const ISP_IPV6_PREFIXES: readonly string[] = [
  "2003:c0",
  "2601:18c",
  "2a01:e0a",
  "2405:201",
  "240e:3b0",
  "2804:14c",
  "2a00:23c4",
  "2400:4050",
];

/**
 * A client address never seen, drawn with `random`: {@linkcode IPV4_SHARE} of them IPv4 at
 * random from public space, the others IPv6 at random inside {@linkcode ISP_IPV6_PREFIXES}.
 */
export function newClient(random: () => number): string {
  const draw = (most: number) => Math.floor(random() * (most + 1));
  if (random() < IPV4_SHARE) {
    for (;;) {
      const value = draw(2 ** 32 - 1);
      if (RESERVED_IPV4.some(([first, last]) => value >= first && value <= last)) continue;
      return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
    }
  }
  const prefix = ISP_IPV6_PREFIXES[draw(ISP_IPV6_PREFIXES.length - 1)]!;
  return [prefix, ...Array.from({ length: 6 }, () => draw(0xffff).toString(16))].join(":");
}

/** `count` client addresses by {@linkcode newClient}, the same each run. */
export function newClients(count: number, seed = 3): string[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => newClient(random));
}

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
 * referrer and a client address (as `clients` says) drawn at random; returns its file name.
 * The script draws a new client's address as {@linkcode newClient} does.
 */
export async function trafficScript(paths: string[], clients: Clients = "pool"): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".lua" });
  const list = (values: readonly string[]) =>
    values.map((value) => JSON.stringify(value.replace(/[^ -~]/g, ""))).join(",\n");
  await Deno.writeTextFile(
    file,
    `local paths = {\n${list(paths.map((p) => p.replace(/[^A-Za-z0-9/_-]/g, "")))}\n}
local agents = {\n${list(BROWSER_USER_AGENTS)}\n}
local referrers = {\n${list(REFERRERS)}\n}
local reserved = {\n${RESERVED_IPV4.map(([a, b]) => `{${a}, ${b}}`).join(",\n")}\n}
local prefixes = {\n${list(ISP_IPV6_PREFIXES)}\n}
local function reserved4(value)
  for _, range in ipairs(reserved) do
    if value >= range[1] and value <= range[2] then return true end
  end
  return false
end
local function client()
  ${CLIENT_LUA[clients]}
end
local i = 0
math.randomseed(${clients === "new" ? "os.time()" : "42"})
request = function()
  i = i + 1
  if i > #paths then i = 1 end
  local address = client()
  local headers = {
    ["User-Agent"] = agents[math.random(#agents)],
    ["X-Forwarded-For"] = address,
  }
  local referrer = referrers[math.random(#referrers)]
  if referrer ~= "" then headers["Referer"] = referrer end
  return wrk.format("GET", paths[i], headers)
end
`,
  );
  return file;
}

// The body of the script's `client()` for each kind of clients. A new IPv4 address is drawn
// octet by octet (LuaJIT's numbers are doubles: exact to 2^53), again while it is reserved.
// New clients are drawn from a seed of the clock, so a round never replays an earlier one's.
const CLIENT_LUA: Record<Clients, string> = {
  pool: `local n = math.random(0, ${CLIENT_POOL - 1})
  return "10.0." .. math.floor(n / 250) .. "." .. (n % 250 + 1)`,
  one: `return "${FIXED_CLIENT}"`,
  new: `if math.random() < ${IPV4_SHARE} then
    while true do
      local a, b, c, d = math.random(0, 255), math.random(0, 255), math.random(0, 255), math.random(0, 255)
      if not reserved4(((a * 256 + b) * 256 + c) * 256 + d) then
        return a .. "." .. b .. "." .. c .. "." .. d
      end
    end
  end
  return prefixes[math.random(#prefixes)] .. string.format(":%x:%x:%x:%x:%x:%x",
    math.random(0, 65535), math.random(0, 65535), math.random(0, 65535),
    math.random(0, 65535), math.random(0, 65535), math.random(0, 65535))`,
};

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
