/**
 * `GET /api/export`: every live link as text (default), `?format=csv` or `?format=json`.
 * @module
 */
import { Hono } from "hono";
import { InvalidInputError } from "../../lib/errors.ts";
import {
  csvHeader,
  csvRow,
  EXPORT_FORMATS,
  listLinkEntries,
  textLine,
} from "../../lib/links/mod.ts";
import type { ExportFormat, LinkListEntry } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { jsonArray, streamResponse } from "../_lib/stream.ts";
import { readUnlocks } from "../_lib/unlock.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

const CONTENT_TYPES: Record<ExportFormat, string> = {
  text: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** The route: the links list in the chosen format, streamed. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", rateLimit(deps, RATE_LIMITS.export), async (c) => {
    const format = (c.req.query("format") ?? "text").toLowerCase();
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new InvalidInputError(`format must be one of ${EXPORT_FORMATS.join(", ")}`);
    }
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
      "Content-Type": CONTENT_TYPES[format as ExportFormat],
      "Cache-Control": "no-store",
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
