/**
 * `deno task bench lighthouse`: Lighthouse's mobile scores (performance, accessibility, best
 * practices, SEO) of the pages a person uses, run from npm (`npx -y lighthouse`) against Debian's
 * Chromium on a service started for the purpose, with a few links and clicks in its store. The
 * goal is at least 95 in every category; the figures are printed, not asserted.
 * @module
 */
import { type ServiceProcess, startService } from "../testing/server.ts";
import { printTable } from "./_lib.ts";

const CHROME = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage";

/** Starts a service, fills it a little, and prints each page's four Lighthouse scores. */
export async function benchLighthouse(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lapse-lighthouse-" });
  try {
    await using service = await startService({ env: { KV_PATH: `${dir}/links.kv` } });
    await seed(service);
    const rows: (string | number)[][] = [];
    for (const path of ["/", "/links", "/links/week-notes", "/stats", "/docs", "/tickets"]) {
      const scores = await lighthouse(`${service.origin}${path}`, `${dir}/report.json`);
      rows.push([path, ...CATEGORIES.map((category) => scores[category] ?? "n/a")]);
    }
    printTable(["page (mobile)", ...CATEGORIES], rows);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function seed(service: ServiceProcess): Promise<void> {
  const links = [
    { url: "example.com/notes/2026/week-48", slug: "week-notes", title: "Notes of the week" },
    { url: "example.org/menu", slug: "menu", pass: "pw" },
    { url: "news.example.com/a/rather/long/path?with=query", note: "For the team" },
    // Its GET is its Open page.
    { url: "example.com/tickets", slug: "tickets", title: "Concert tickets", maxVisits: 3 },
  ];
  for (const link of links) {
    const res = await fetch(`${service.origin}/api/create`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(link),
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    await res.body?.cancel();
  }
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${service.origin}/week-notes`, {
      redirect: "manual",
      headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0" },
    });
    await res.body?.cancel();
  }
}

/** The scores (0 to 100) of one page, by category. */
async function lighthouse(url: string, report: string): Promise<Record<string, number>> {
  const { success, stderr } = await new Deno.Command("npx", {
    args: [
      "-y",
      "lighthouse",
      url,
      `--chrome-flags=${CHROME_FLAGS}`,
      `--only-categories=${CATEGORIES.join(",")}`,
      "--output=json",
      `--output-path=${report}`,
      "--quiet",
    ],
    env: { CHROME_PATH: CHROME },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(`lighthouse failed: ${new TextDecoder().decode(stderr)}`);
  const { categories } = JSON.parse(await Deno.readTextFile(report)) as {
    categories: Record<string, { score: number | null }>;
  };
  return Object.fromEntries(
    Object.entries(categories).map(([name, { score }]) => [name, Math.round((score ?? 0) * 100)]),
  );
}

if (import.meta.main) await benchLighthouse();
