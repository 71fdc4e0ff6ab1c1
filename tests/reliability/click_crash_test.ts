import { assert, assertEquals } from "../_helpers/assert.ts";
import {
  call,
  clientNumber,
  type ServiceProcess,
  startService,
  tempDir,
} from "../../testing/server.ts";
import { DESKTOP_UA, MOBILE_UA } from "../../testing/visits.ts";
import { within } from "../_helpers/wait.ts";

// A lag long enough that the kill comes before any link's figures are due, short enough that
// the figures a killed process left are written within a test's time: two lag periods.
const LAG_SECONDS = 10;
const LINKS = 20;
const REFERRERS = ["", "https://news.example/a", "https://mail.example/", "https://t.example/x"];
const AGENTS = [DESKTOP_UA, MOBILE_UA];
// Public addresses in several countries, so that countries are counted by address.
const ADDRESSES = ["81.2.69.160", "2a00:1450:4001:81b::200e", "8.8.8.8", "1.1.1.1"];

interface Traffic {
  /** When each redirect was answered, in `performance.now()` ms. */
  answered: number[];
  stopped: boolean;
}

/** Browser visits to `slugs` on `origins` in turn, until stopped or a server dies. */
async function browse(origins: string[], slugs: string[], traffic: Traffic): Promise<void> {
  let i = 0;
  const worker = async (w: number) => {
    while (!traffic.stopped) {
      const n = i++;
      const origin = origins[(n + w) % origins.length]!;
      try {
        const answer = await call(origin, `/${slugs[n % slugs.length]}`, {
          client: ADDRESSES[n % ADDRESSES.length],
          headers: { "User-Agent": AGENTS[n % AGENTS.length]!, Referer: REFERRERS[n % 4]! },
        });
        if (answer.status === 302) traffic.answered.push(answer.doneAt);
      } catch {
        if (origins.length === 1) return; // the server is gone
        origins = origins.filter((one) => one !== origin);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
}

interface Named {
  name?: string;
  date?: string;
  clicks: number;
}

interface LinkStatsDoc {
  clicks: number;
  days: Named[];
  referrers: Named[];
  devices: Named[];
  countries: Named[];
}

const total = (rows: Named[]) => rows.reduce((sum, row) => sum + row.clicks, 0);

/**
 * Every figure the service shows, once they agree: each link's clicks, days, referrers, devices
 * and countries, and the service-wide clicks and top. Null when they do not agree by `ms`.
 */
async function agreedFigures(
  origin: string,
  slugs: string[],
  ms: number,
): Promise<{ clicks: number } | null> {
  let round = 0;
  let agreed: { clicks: number } | null = null;
  await within(ms, async () => {
    round++;
    const docs = await Promise.all(slugs.map(async (slug, i) => {
      const answer = await call(origin, `/api/stats?slug=${slug}`, {
        client: clientNumber(round * 100 + i),
      });
      return answer.json<LinkStatsDoc>();
    }));
    const agree = docs.every((doc) =>
      total(doc.days) === doc.clicks && total(doc.referrers) === doc.clicks &&
      total(doc.devices) === doc.clicks && total(doc.countries) === doc.clicks
    );
    const clicks = docs.reduce((sum, doc) => sum + doc.clicks, 0);
    const stats = (await call(origin, "/api/stats", { client: clientNumber(round * 100 + 99) }))
      .json<{ clicks: number; top: { slug: string; clicks: number }[] }>();
    const topAgrees = stats.top.every((entry) =>
      entry.clicks === docs[slugs.indexOf(entry.slug)]?.clicks
    );
    if (agree && topAgrees && stats.clicks === clicks && clicks > 0) agreed = { clicks };
    return agreed !== null;
  });
  return agreed;
}

async function makeLinks(origin: string): Promise<string[]> {
  const slugs: string[] = [];
  for (let i = 0; i < LINKS; i++) {
    const answer = await call(origin, "/api/create", {
      json: { url: `example.com/crash/${i}` },
      client: clientNumber(9_000 + i),
    });
    assertEquals(answer.status, 201);
    slugs.push(answer.json<{ slug: string }>().slug);
  }
  return slugs;
}

/**
 * Kills `victim` once its first clicks are in the store (its figures not yet due), mid-traffic,
 * and says what the figures may lose: the visits answered in its last two seconds, which may not
 * have reached the store.
 */
async function killMidTraffic(
  victim: ServiceProcess,
  slugs: string[],
  traffic: Traffic,
): Promise<number> {
  let probe = 0;
  const written = await within(10_000, async () => {
    const answer = await call(victim.origin, `/api/stats?slug=${slugs[0]}`, {
      client: clientNumber(5_000 + probe++),
    });
    return answer.status === 200 && answer.json<LinkStatsDoc>().clicks > 0;
  });
  assert(written !== null, "the first clicks were stored");
  const killedAt = performance.now();
  await victim.stop("SIGKILL");
  return traffic.answered.filter((at) => at > killedAt - 2_000).length;
}

Deno.test("kill -9 mid-traffic: the next process writes the figures left, and they agree", async () => {
  await using dir = await tempDir("lapse-click-crash-");
  const env = {
    KV_PATH: `${dir.path}/links.kv`,
    TRUST_PROXY: "1",
    STATS_LAG_SECONDS: String(LAG_SECONDS),
  };
  const first = await startService({ env });
  const slugs = await makeLinks(first.origin);
  const traffic: Traffic = { answered: [], stopped: false };
  const load = browse([first.origin], slugs, traffic);
  const mayLose = await killMidTraffic(first, slugs, traffic);
  traffic.stopped = true;
  await load;
  const answered = traffic.answered.length;
  await using next = await startService({ env });
  const figures = await agreedFigures(next.origin, slugs, 2 * LAG_SECONDS * 1000 + 5_000);
  assert(figures !== null, "the figures agree within two lag periods of the restart");
  assert(figures.clicks <= answered, `${figures.clicks} clicks of ${answered} redirects`);
  assert(
    answered - figures.clicks <= mayLose,
    `${answered - figures.clicks} lost, more than the ${mayLose} of the last two seconds`,
  );
});

Deno.test("two processes, one killed mid-traffic: the survivor alone writes its figures", async () => {
  await using dir = await tempDir("lapse-click-pair-");
  const env = {
    KV_PATH: `${dir.path}/links.kv`,
    TRUST_PROXY: "1",
    STATS_LAG_SECONDS: String(LAG_SECONDS),
  };
  const killed = await startService({ env });
  await using survivor = await startService({ env });
  const slugs = await makeLinks(survivor.origin);
  const traffic: Traffic = { answered: [], stopped: false };
  const load = browse([killed.origin, survivor.origin], slugs, traffic);
  const mayLose = await killMidTraffic(killed, slugs, traffic);
  traffic.stopped = true;
  await load;
  const answered = traffic.answered.length;
  const figures = await agreedFigures(survivor.origin, slugs, 2 * LAG_SECONDS * 1000 + 5_000);
  assert(figures !== null, "the survivor's figures agree within two lag periods");
  assert(figures.clicks <= answered, `${figures.clicks} clicks of ${answered} redirects`);
  assert(
    answered - figures.clicks <= mayLose,
    `${answered - figures.clicks} lost, more than the ${mayLose} of the last two seconds`,
  );
});
