/**
 * Shared pieces of the benchmarks: seeding a store, timing, printing.
 * @module
 */
import { ClickBuffer } from "../lib/clicks/mod.ts";
import { monotonicFactory } from "ulid";
import { addCreationTallies, createLink, type DatedLinkRecord } from "../lib/links/mod.ts";
import { addLinkWrites } from "../lib/links/write.ts";
import { openStore, type Store } from "../lib/kv/store.ts";
import { inParallel } from "../testing/server.ts";
import { record } from "../testing/visits.ts";

/** A store on a fresh local KV file in a temporary folder. */
export async function freshStore(): Promise<Store & AsyncDisposable & { path: string }> {
  const dir = await Deno.makeTempDir({ prefix: "lapse-bench-" });
  const path = `${dir}/links.kv`;
  const store = await openStore(path);
  return {
    ...store,
    path,
    async [Symbol.asyncDispose]() {
      try {
        store.kv.close();
      } catch {
        // closed already
      }
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Makes `count` links, `parallel` at a time; returns them. */
export async function seedLinks(
  store: Store,
  count: number,
  options: { parallel?: number; prefix?: string } = {},
): Promise<DatedLinkRecord[]> {
  return await inParallel(count, options.parallel ?? 16, (i) =>
    createLink(store, {
      url: `https://example.com/${options.prefix ?? "page"}/${i}`,
      title: `Link ${i}`,
    }, { serviceHost: "bench.invalid" }));
}

const AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
];

/** Gives every link a few clicks from varied referrers, devices and countries, and flushes. */
export async function seedClicks(store: Store, links: DatedLinkRecord[]): Promise<void> {
  const buffer = new ClickBuffer(store, { flushThreshold: Number.MAX_SAFE_INTEGER, log: () => {} });
  for (const [i, link] of links.entries()) {
    for (let v = 0; v < 1 + (i % 3); v++) {
      record(buffer, link, {
        userAgent: AGENTS[(i + v) % AGENTS.length]!,
        referer: (i + v) % 4 === 0 ? "" : `https://site${(i + v) % 50}.example/`,
        client: `81.2.${(i + v) % 250}.${v + 1}`,
        country: "",
      });
    }
    if (buffer.pending >= 20_000) await buffer.flush();
  }
  await buffer.flush();
}

/** Percentiles of durations in ms. */
export function percentiles(samples: number[]): { p50: number; p90: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

/** A number with `digits` decimals. */
export function fixed(value: number, digits = 2): string {
  return value.toFixed(digits);
}

/** Prints a table: a header row and rows, columns padded. */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  for (const [r, row] of cells.entries()) {
    console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join("  "));
    if (r === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}

/** The paths of `count` of `slugs`, spread evenly over them. */
export function spreadPaths(slugs: string[], count: number): string[] {
  const step = Math.max(1, Math.floor(slugs.length / count));
  return slugs.filter((_, i) => i % step === 0).slice(0, count).map((slug) => `/${slug}`);
}

/**
 * Makes `count` links quickly for a benchmark: a hundred to a commit, with the same keys and
 * tallies a create writes. Returns their slugs.
 */
export async function seedLinksFast(store: Store, count: number): Promise<string[]> {
  const slugs: string[] = [];
  const nextId = monotonicFactory();
  for (let start = 0; start < count; start += 100) {
    const atomic = store.kv.atomic();
    const now = store.now();
    for (let i = start; i < Math.min(count, start + 100); i++) {
      const slug = `b${i.toString(16)}`;
      const record: DatedLinkRecord = {
        id: nextId(now),
        slug,
        url: `https://example.com/page/${i}`,
        title: `Link ${i}`,
        note: "",
        passHash: null,
        createdAt: now,
        expiresAt: now + store.ttlMs,
      };
      addLinkWrites(atomic, record, now);
      addCreationTallies(atomic, record);
      slugs.push(slug);
    }
    await atomic.commit();
  }
  return slugs;
}
