import { assert, assertEquals } from "../_helpers/assert.ts";
import { call, clientNumber, inParallel, startService, tempDir } from "../../testing/server.ts";
import { DESKTOP_UA } from "../../testing/visits.ts";
import { until } from "../_helpers/wait.ts";

const CLIENTS = 8;
// The kill comes mid-load once this many creates were acknowledged, however fast the machine.
const CREATES_BEFORE_KILL = 400;
const MAX_REQUESTS = 5_000;

interface Ledger {
  /** Links answered 201, by slug, with their destination. */
  made: Map<string, string>;
  /** Links whose removal was answered 200. */
  removed: Set<string>;
  /** Links whose removal the kill cut off: either outcome is right. */
  unsure: Set<string>;
  sent: number;
  refused: number;
  cutOff: number;
}

/**
 * One client: creates links, and removes one of its own every fourth request, until the server
 * dies or the bound is reached.
 */
async function client(origin: string, ledger: Ledger, stopped: () => boolean): Promise<void> {
  const mine: string[] = [];
  while (!stopped() && ledger.sent < MAX_REQUESTS) {
    const i = ledger.sent++;
    const slug = i % 4 === 3 ? mine.shift() : undefined;
    try {
      if (slug !== undefined) {
        const answer = await call(origin, `/api/remove?slug=${slug}`, { method: "DELETE" });
        if (answer.status === 200) ledger.removed.add(slug);
        else ledger.refused++;
        continue;
      }
      const answer = await call(origin, "/api/create", {
        json: { url: `example.com/crash/${i}`, title: `crash ${i}` },
        client: clientNumber(i),
      });
      if (answer.status !== 201) {
        ledger.refused++;
        continue;
      }
      const link = answer.json<{ slug: string; url: string }>();
      ledger.made.set(link.slug, link.url);
      mine.push(link.slug);
    } catch {
      // The connection died with the server: nothing was acknowledged.
      ledger.cutOff++;
      if (slug !== undefined) ledger.unsure.add(slug);
      return;
    }
  }
}

Deno.test("kill -9 under create and remove load loses no acknowledged link and keeps no removed one", async () => {
  await using dir = await tempDir("lapse-crash-");
  const env = { KV_PATH: `${dir.path}/links.kv`, TRUST_PROXY: "1" };
  const ledger: Ledger = {
    made: new Map(),
    removed: new Set(),
    unsure: new Set(),
    sent: 0,
    refused: 0,
    cutOff: 0,
  };
  let loadMs = 0;
  {
    await using service = await startService({ env });
    let killed = false;
    const loadStarted = performance.now();
    const load = Promise.all(
      Array.from({ length: CLIENTS }, () => client(service.origin, ledger, () => killed)),
    );
    await until(() => ledger.made.size >= CREATES_BEFORE_KILL, 60_000);
    loadMs = performance.now() - loadStarted;
    const status = await service.stop("SIGKILL");
    killed = true;
    await load;
    assertEquals(status.success, false, "the server was not killed");
  }
  assert(ledger.made.size > 100, `only ${ledger.made.size} creates were acknowledged`);

  await using again = await startService({ env });
  const started = performance.now();
  const listed = (await call(again.origin, "/api/links")).json<{ slug: string; url: string }[]>();
  const stored = new Map(listed.map((link) => [link.slug, link.url]));
  const kept = [...ledger.made].filter(([slug]) =>
    !ledger.removed.has(slug) && !ledger.unsure.has(slug)
  );
  const lost = kept.filter(([slug, url]) => stored.get(slug) !== url);
  const revived = [...ledger.removed].filter((slug) => stored.has(slug));
  const answers = await inParallel(kept.length + ledger.removed.size, 16, async (i) => {
    const [slug, url] = kept[i] ?? [[...ledger.removed][i - kept.length]!, null];
    const answer = await call(again.origin, `/${slug}`, { method: "HEAD" });
    return url === null
      ? answer.status === 404
      : answer.status === 302 && answer.headers.get("location") === url;
  });
  const stats = (await call(again.origin, "/api/stats")).json<{ links: number }>();
  const exported = (await call(again.origin, "/api/export")).text.split("\n").filter(Boolean);
  console.log(
    `kill -9 after ${loadMs.toFixed(0)} ms of ${CLIENTS} clients: ${ledger.sent} requests, ` +
      `${ledger.made.size} creates and ${ledger.removed.size} removals acknowledged, ` +
      `${ledger.refused} refused, ${ledger.cutOff} cut off; after restart ${stored.size} stored, ` +
      `${lost.length} lost, ${revived.length} removed ones back; checked in ` +
      `${(performance.now() - started).toFixed(0)} ms`,
  );
  assertEquals(lost, []);
  assertEquals(revived, []);
  assertEquals(ledger.refused, 0);
  assertEquals(answers.filter((ok) => !ok).length, 0);
  // A create or removal whose answer the kill cut off may or may not have happened.
  const expected = kept.length + ledger.unsure.size;
  assert(stored.size >= kept.length && stored.size <= expected + CLIENTS, String(stored.size));
  assertEquals(stats.links, stored.size);
  assertEquals(exported.length, stored.size);
  await again.stop();
});

Deno.test("SIGTERM under create and visit load loses no acknowledged link and no answered visit", async () => {
  await using dir = await tempDir("lapse-term-");
  const env = { KV_PATH: `${dir.path}/links.kv`, TRUST_PROXY: "1" };
  const made = new Map<string, string>();
  let visits = 0;
  let cutOff = 0;
  let refused = 0;
  {
    await using service = await startService({ env });
    const target = await call(service.origin, "/api/create", {
      json: { url: "example.com/visited", slug: "visited" },
    });
    assertEquals(target.status, 201);
    let stopping = false;
    let n = 0;
    const worker = async (visitor: boolean) => {
      while (!stopping && n < 50_000) {
        const i = n++;
        try {
          if (visitor) {
            const answer = await call(service.origin, "/visited", {
              headers: { "User-Agent": DESKTOP_UA },
              client: clientNumber(i),
            });
            if (answer.status === 302) visits++;
            else refused++;
            continue;
          }
          const answer = await call(service.origin, "/api/create", {
            json: { url: `example.com/term/${i}` },
            client: clientNumber(i),
          });
          if (answer.status !== 201) refused++;
          else {
            const link = answer.json<{ slug: string; url: string }>();
            made.set(link.slug, link.url);
          }
        } catch {
          cutOff++; // refused at the door once the server stopped accepting
          return;
        }
      }
    };
    const load = Promise.all([
      ...Array.from({ length: 4 }, () => worker(false)),
      ...Array.from({ length: 4 }, () => worker(true)),
    ]);
    // Stopped mid-load, once both kinds of request are well under way.
    await until(() => made.size >= 100 && visits >= 100, 60_000);
    const status = await service.stop("SIGTERM");
    stopping = true;
    await load;
    assertEquals(status.code, 0, service.output());
  }
  await using again = await startService({ env });
  const listed = (await call(again.origin, "/api/links")).json<
    { slug: string; url: string; clicks: number }[]
  >();
  const stored = new Map(listed.map((link) => [link.slug, link.url]));
  const lost = [...made].filter(([slug, url]) => stored.get(slug) !== url);
  const clicks = listed.find((link) => link.slug === "visited")?.clicks;
  console.log(
    `SIGTERM mid-load of 4 creating and 4 visiting clients: ${made.size} links and ${visits} ` +
      `visits acknowledged, ${cutOff} cut off; after restart ${lost.length} links lost, ` +
      `${clicks} clicks counted`,
  );
  assertEquals(lost, []);
  assertEquals(refused, 0);
  assertEquals(clicks, visits);
  await again.stop();
});
