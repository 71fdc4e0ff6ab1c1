/**
 * `/api/links` and `/api/export` of 100,000 links: time and the server's peak memory, which
 * must stay flat (goal: RSS <= 150 MB) since both stream from a store cursor.
 * @module
 */
import { fixed, freshStore, printTable, seedLinksFast } from "./_lib.ts";
import { BROWSER_UA, canPin, peakRssMiB, rssMiB, startBenchService } from "./_wrk.ts";
import { pause } from "../lib/pause.ts";

/** Measures and prints. */
export async function benchListing(count = 100_000): Promise<void> {
  console.log(`\n## Listing and export of ${count.toLocaleString("en")} links\n`);
  await using store = await freshStore();
  await seedLinksFast(store, count);
  store.kv.close();
  await using service = await startBenchService(store.path, { pin: await canPin() });
  // A visit, so the first click flush loads the country database, as on any server in use.
  const visit = await fetch(`${service.origin}/b0`, {
    redirect: "manual",
    headers: { "User-Agent": BROWSER_UA },
  });
  await visit.body?.cancel();
  await pause(2500);
  const idle = await rssMiB(service.pid);
  const rows: (string | number)[][] = [];
  for (
    const path of ["/api/links", "/api/export", "/api/export?format=csv", "/api/export?format=json"]
  ) {
    const start = performance.now();
    const res = await fetch(`${service.origin}${path}`);
    let bytes = 0;
    for await (const chunk of res.body!) bytes += chunk.length;
    const seconds = (performance.now() - start) / 1000;
    rows.push([
      path,
      res.status,
      fixed(bytes / 2 ** 20, 1),
      fixed(seconds, 2),
      fixed(await peakRssMiB(service.pid), 1),
    ]);
  }
  printTable(["request", "status", "MiB sent", "seconds", "server peak RSS MiB"], rows);
  console.log(
    `\nserver RSS before the first listing, its country database loaded by a click: ` +
      `${fixed(idle, 1)} MiB (goal: peak <= 150 MB)`,
  );
}

if (import.meta.main) await benchListing();
