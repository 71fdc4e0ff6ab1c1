/**
 * `deno task soak [seconds]`: two service processes on one KV file under a mixed load, one killed
 * and restarted every 15 s, then every acknowledged answer checked against the store; exits 1 when
 * anything was lost. The short versions of these checks are in `tests/reliability/`.
 * @module
 */
import {
  call,
  clientNumber,
  inParallel,
  type ServiceProcess,
  startService,
  tempDir,
} from "../testing/server.ts";
import { DESKTOP_UA } from "../testing/visits.ts";
import { pause } from "../lib/pause.ts";

const SECONDS = Number(Deno.args[0] ?? 60);
const KILL_EVERY_MS = 15_000;
const WORKERS = 8;

interface Ledger {
  made: Map<string, string>;
  removed: Set<string>;
  /** Removals the kill cut off: either outcome is right. */
  unsure: Set<string>;
  /** Links a worker is removing right now; nobody else picks them. */
  busy: Set<string>;
  live: string[];
  statuses: Map<number, number>;
  cutOff: number;
  visits: number;
  requests: number;
}

/** A small seeded generator for the mix of operations; the seed is printed with the figures. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function note(ledger: Ledger, status: number): void {
  ledger.requests++;
  ledger.statuses.set(status, (ledger.statuses.get(status) ?? 0) + 1);
}

async function work(
  origins: () => string[],
  ledger: Ledger,
  next: () => number,
  until: number,
): Promise<void> {
  while (performance.now() < until) {
    const n = ledger.requests + ledger.cutOff;
    const origin = origins()[n % 2]!;
    const roll = next();
    let removing: string | undefined;
    try {
      if (roll < 0.55 || ledger.live.length < 20) {
        const answer = await call(origin, "/api/create", {
          json: { url: `example.com/soak/${n}`, title: `soak ${n}` },
          client: clientNumber(n),
        });
        note(ledger, answer.status);
        if (answer.status === 201) {
          const link = answer.json<{ slug: string; url: string }>();
          ledger.made.set(link.slug, link.url);
          ledger.live.push(link.slug);
        }
      } else if (roll < 0.85) {
        const slug = ledger.live[Math.floor(next() * ledger.live.length)]!;
        const answer = await call(origin, `/${slug}`, { headers: { "User-Agent": DESKTOP_UA } });
        note(ledger, answer.status);
        if (answer.status === 302) ledger.visits++;
      } else if (roll < 0.93) {
        const at = Math.floor(next() * ledger.live.length);
        const slug = ledger.live[at]!;
        if (ledger.busy.has(slug)) continue;
        ledger.busy.add(slug);
        removing = slug;
        const answer = await call(origin, `/api/remove?slug=${slug}`, { method: "DELETE" });
        note(ledger, answer.status);
        ledger.busy.delete(slug);
        if (answer.status === 200) {
          ledger.removed.add(slug);
          ledger.live.splice(ledger.live.indexOf(slug), 1);
        }
      } else {
        const slug = ledger.live[Math.floor(next() * ledger.live.length)]!;
        const answer = await call(origin, `/api/unshorten?slug=${slug}`);
        note(ledger, answer.status);
      }
    } catch {
      // The instance was killed under this request; nothing was acknowledged.
      ledger.cutOff++;
      if (removing !== undefined) {
        ledger.unsure.add(removing);
        ledger.busy.delete(removing);
        ledger.live.splice(ledger.live.indexOf(removing), 1);
      }
      await pause(20);
    }
  }
}

/** Runs the soak and prints what it found; returns whether nothing was lost. */
export async function soak(seconds = SECONDS): Promise<boolean> {
  const seed = Date.now() % 1_000_000;
  await using dir = await tempDir("lapse-soak-");
  const env = { KV_PATH: `${dir.path}/links.kv`, TRUST_PROXY: "1" };
  const instances: ServiceProcess[] = [await startService({ env }), await startService({ env })];
  const ledger: Ledger = {
    made: new Map(),
    removed: new Set(),
    unsure: new Set(),
    busy: new Set(),
    live: [],
    statuses: new Map(),
    cutOff: 0,
    visits: 0,
    requests: 0,
  };
  const next = random(seed);
  const started = performance.now();
  const until = started + seconds * 1000;
  let kills = 0;
  try {
    const origins = () => instances.map((instance) => instance.origin);
    const workers = Array.from({ length: WORKERS }, () => work(origins, ledger, next, until));
    while (performance.now() + KILL_EVERY_MS < until) {
      await pause(KILL_EVERY_MS);
      const victim = kills % 2;
      await instances[victim]!.stop("SIGKILL");
      instances[victim] = await startService({ env });
      kills++;
    }
    await Promise.all(workers);
  } finally {
    for (const instance of instances) await instance[Symbol.asyncDispose]();
  }

  await using check = await startService({ env });
  const listed = (await call(check.origin, "/api/links")).json<{ slug: string; url: string }[]>();
  const stored = new Map(listed.map((link) => [link.slug, link.url]));
  const kept = [...ledger.made].filter(([slug]) =>
    !ledger.removed.has(slug) && !ledger.unsure.has(slug)
  );
  const lost = kept.filter(([slug, url]) => stored.get(slug) !== url);
  const revived = [...ledger.removed].filter((slug) => stored.has(slug));
  const redirects = await inParallel(kept.length, 16, async (i) => {
    const [slug, url] = kept[i]!;
    const answer = await call(check.origin, `/${slug}`, { method: "HEAD" });
    return answer.status === 302 && answer.headers.get("location") === url;
  });
  const stats = (await call(check.origin, "/api/stats")).json<{ links: number; clicks: number }>();
  const exported = (await call(check.origin, "/api/export")).text.split("\n").filter(Boolean);
  const statuses = [...ledger.statuses].sort(([a], [b]) => a - b).map(([s, c]) => `${s}:${c}`);
  const serverErrors = [...ledger.statuses].filter(([s]) => s >= 500).reduce(
    (n, [, c]) => n + c,
    0,
  );
  const consistent = stats.links === stored.size && exported.length === stored.size;
  console.log(`## soak: ${seconds} s, ${WORKERS} workers over 2 instances, seed ${seed}`);
  console.log(
    `requests answered: ${ledger.requests} (${statuses.join(" ")}), 5xx: ${serverErrors}`,
  );
  console.log(
    `instances killed with SIGKILL and restarted: ${kills}; requests cut off: ${ledger.cutOff}`,
  );
  console.log(
    `links acknowledged: ${ledger.made.size}, removals acknowledged: ${ledger.removed.size}, ` +
      `removals cut off: ${ledger.unsure.size}`,
  );
  console.log(
    `after restart: ${stored.size} stored, ${lost.length} lost, ${revived.length} removed ones ` +
      `back, ${redirects.filter((ok) => !ok).length} not redirecting; list, export and stats ` +
      `${consistent ? "agree" : `disagree (stats ${stats.links}, export ${exported.length})`}`,
  );
  console.log(
    `visits redirected: ${ledger.visits}; clicks kept by live links: ${stats.clicks} ` +
      `(visits of removed links leave the figures; up to a second of buffered clicks dies with ` +
      `each killed instance)`,
  );
  return lost.length === 0 && revived.length === 0 && redirects.every(Boolean) && consistent;
}

if (import.meta.main) {
  if (!(await soak())) Deno.exit(1);
}
