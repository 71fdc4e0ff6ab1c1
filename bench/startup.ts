/**
 * Start-up to the first successful redirect (`deno task start` on a store of 1,000 links, the
 * island bundles already built), and the JavaScript the home page loads, gzipped as the server
 * sends it.
 * @module
 */
import { gzipBest } from "../lib/compression.ts";
import { fixed, freshStore, printTable, seedLinksFast } from "./_lib.ts";
import { freePort } from "../testing/server.ts";
import { BUILD_DIR, buildIslands } from "../tasks/bundle.ts";
import { pause } from "../lib/pause.ts";

/** Measures and prints. */
export async function benchStartup(): Promise<void> {
  console.log("\n## Start-up and the home page's JavaScript\n");
  await buildIslands({ log: () => {} });
  await using store = await freshStore();
  const [slug] = await seedLinksFast(store, 1000);
  store.kv.close();
  const rows: (string | number)[][] = [];
  for (let round = 0; round < 3; round++) {
    const port = freePort();
    const origin = `http://127.0.0.1:${port}`;
    const start = performance.now();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "start"],
      cwd: new URL("../", import.meta.url),
      env: { PORT: String(port), HOSTNAME: "127.0.0.1", BASE_URL: origin, KV_PATH: store.path },
      stdout: "null",
      stderr: "null",
    }).spawn();
    let ms = NaN;
    for (let i = 0; i < 3000; i++) {
      try {
        const res = await fetch(`${origin}/${slug}`, { redirect: "manual" });
        await res.body?.cancel();
        if (res.status === 302) {
          ms = performance.now() - start;
          break;
        }
      } catch {
        // not listening yet
      }
      await pause(5);
    }
    child.kill("SIGTERM");
    await child.status;
    rows.push([`round ${round + 1}`, fixed(ms, 0)]);
  }
  printTable(["start-up", "ms to first 302"], rows);
  const files = await homePageScripts();
  let total = 0;
  for (const file of files) {
    total += (await gzipBest(await Deno.readFile(new URL(file, BUILD_DIR)))).byteLength;
  }
  console.log(
    `\nhome page JavaScript: ${files.length} files, ${total} bytes gzipped (${
      fixed(total / 1024, 1)
    } KiB; goal <= 15 KB)`,
  );
}

/**
 * The built files the home page loads on arrival: the client entry, its islands, and what they
 * import. An island inside a closed `<details>` (bulk) loads only when that is opened.
 */
async function homePageScripts(): Promise<string[]> {
  const html = await (await import("./_home.ts")).homePageHtml();
  const { DOMParser } = await import("linkedom");
  const doc = new DOMParser().parseFromString(html, "text/html");
  const islands = [...doc.querySelectorAll("[data-island]")]
    .filter((island) => island.closest("details:not([open])") === null)
    .map((island) => island.getAttribute("data-island")!);
  const names = [...Deno.readDirSync(BUILD_DIR)].map((entry) => entry.name);
  const queue = [
    "_client.js",
    ...islands.map((island) => names.find((n) => n.startsWith(`${island}-`))!),
  ];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await Deno.readTextFile(new URL(file, BUILD_DIR));
    // Static imports only: the client entry's dynamic imports are the islands, counted above.
    for (const m of text.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) queue.push(m[1]!);
  }
  return [...seen];
}

if (import.meta.main) await benchStartup();
