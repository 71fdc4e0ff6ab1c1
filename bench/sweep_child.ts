/**
 * Runs one sweep over the store at `Deno.args[0]` and prints `{seconds, swept, peakRssMiB}` as
 * JSON: the sweep's own process, so its memory is measured alone.
 * @module
 */
import { openStore } from "../lib/kv/store.ts";
import { sweepExpiredLinks } from "../lib/links/mod.ts";
import { peakRssMiB } from "./_wrk.ts";

const store = await openStore(Deno.args[0]!);
const start = performance.now();
const report = await sweepExpiredLinks(store);
const seconds = (performance.now() - start) / 1000;
store.kv.close();
console.log(
  JSON.stringify({ seconds, swept: report.swept, peakRssMiB: await peakRssMiB(Deno.pid) }),
);
