/**
 * `GET /api/export`: every live link as text (default), `?format=csv` or `?format=json`.
 * @module
 */
import { Hono } from "hono";
import { csvHeader, csvRow, exportQuery, listLinkEntries, textLine } from "../../lib/links/mod.ts";
import type { LinkListEntry } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { jsonArray, streamResponse } from "../_lib/stream.ts";
import { cacheControlOf, readUnlocks } from "../_lib/unlock.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
import { CONTENT_TYPES } from "./export_spec.ts";
export { spec } from "./export_spec.ts";

/** The route: the links list in the chosen format, streamed. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.export), async (c) => {
    const { format } = parseQuery(c, exportQuery);
    const unlocks = await readUnlocks(c, deps);
    const entries = listLinkEntries(deps.store, {
      baseUrl: deps.config.baseUrl,
      unlocked: (record) => unlocks.get(record.slug) === record.id,
    });
    const pieces = format === "json"
      ? jsonArray(entries)
      : format === "csv"
      ? csvPieces(entries)
      : textPieces(entries);
    const headers: Record<string, string> = {
      "Content-Type": CONTENT_TYPES[format],
      // A request with an unlock cookie may see a protected destination: never compressed.
      "Cache-Control": cacheControlOf(unlocks.size > 0),
    };
    if (format === "csv") headers["Content-Disposition"] = 'attachment; filename="links.csv"';
    return streamResponse(pieces, headers);
  });
}

async function* textPieces(entries: AsyncIterable<LinkListEntry>): AsyncGenerator<string> {
  for await (const entry of entries) yield textLine(entry);
}

async function* csvPieces(entries: AsyncIterable<LinkListEntry>): AsyncGenerator<string> {
  let header = csvHeader();
  for await (const entry of entries) {
    yield header + csvRow(entry);
    header = "";
  }
  if (header) yield header;
}
