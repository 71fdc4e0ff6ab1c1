/**
 * Creates per second over HTTP on the local KV file: single creates and ten-row bulk creates,
 * at 20 connections. Each request names its own client (TRUST_PROXY=1 and a fresh
 * X-Forwarded-For), so the per-client rate limits do not cap the figure.
 * @module
 */
import { freshStore, printTable } from "./_lib.ts";
import { canPin, ensureWrk, pinned, run, startBenchService } from "./_wrk.ts";

const SECONDS = 8;
const CONNECTIONS = 20;

function script(path: string, rows: number): string {
  const body = rows === 1
    ? `'{"url":"https://example.com/made/' .. n .. '"}'`
    : `'{"urls":[' .. table.concat(urls, ",") .. ']}'`;
  return `local n = 0
request = function()
  n = n + 1
  local urls = {}
  for r = 1, ${rows} do urls[r] = '"https://example.com/bulk/' .. n .. '/' .. r .. '"' end
  local headers = { ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = "10." .. (math.floor(n / 65536) % 256) .. "." .. (math.floor(n / 256) % 256) .. "." .. (n % 256) }
  return wrk.format("POST", "${path}", headers, ${body})
end
`;
}

/** Measures and prints. */
export async function benchCreates(): Promise<void> {
  await ensureWrk();
  const pin = await canPin();
  console.log(`\n## Creates on the local KV file (${CONNECTIONS} connections, ${SECONDS} s)\n`);
  const rows: (string | number)[][] = [];
  for (
    const [label, path, perRequest] of [["single", "/api/create", 1], [
      "bulk, 10 rows",
      "/api/bulk",
      10,
    ]] as const
  ) {
    await using store = await freshStore();
    store.kv.close();
    await using service = await startBenchService(store.path, { pin, env: { TRUST_PROXY: "1" } });
    const file = await Deno.makeTempFile({ suffix: ".lua" });
    await Deno.writeTextFile(file, script(path, perRequest));
    const output = await run(
      pinned(1, [
        "wrk",
        "-t1",
        `-c${CONNECTIONS}`,
        `-d${SECONDS}s`,
        "--latency",
        "-s",
        file,
        `${service.origin}/`,
      ], pin),
    );
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]);
    const p50 = /\s50%\s+([\d.]+\w+)/.exec(output)?.[1] ?? "?";
    const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
    rows.push([label, Math.round(rps), Math.round(rps * perRequest), p50, errors]);
  }
  printTable(["create", "requests/s", "links/s", "p50", "non-2xx"], rows);
}

if (import.meta.main) await benchCreates();
