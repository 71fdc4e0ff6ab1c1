/**
 * `GET /api/export`: every live link as text (default), `?format=csv` or `?format=json`.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  csvHeader,
  csvRow,
  exportQuery,
  linkListEntry,
  listLinkEntries,
  textLine,
} from "../../lib/links/mod.ts";
import type { ExportFormat, LinkListEntry } from "../../lib/links/mod.ts";
import { errorResponse, type RouteSpec } from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { EXAMPLE_LIST_ENTRY, EXAMPLE_PROTECTED_ENTRY } from "../_lib/examples.ts";
import { parseQuery } from "../_lib/params.ts";
import { jsonArray, streamResponse } from "../_lib/stream.ts";
import { readUnlocks } from "../_lib/unlock.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

const CONTENT_TYPES: Record<ExportFormat, string> = {
  text: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
};

const EXAMPLE_ENTRIES = [EXAMPLE_LIST_ENTRY, EXAMPLE_PROTECTED_ENTRY];

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "Export every live link",
    description: "The links list, streamed: plain text by default, one line per link " +
      "(`<shortUrl> TAB <url> TAB <expiresAt>`, a protected destination shown as " +
      "`(protected)`); CSV with a header row of the list fields (cells that a spreadsheet " +
      "would run as a formula are prefixed with `'`); or the JSON list.",
    query: exportQuery,
    parameterExample: { format: "csv" },
    responses: {
      200: {
        description: "Every live link, newest first, in the chosen format",
        content: {
          [CONTENT_TYPES.text]: {
            schema: z.string(),
            example: EXAMPLE_ENTRIES.map(textLine).join(""),
          },
          [CONTENT_TYPES.csv]: {
            schema: z.string(),
            example: csvHeader() + EXAMPLE_ENTRIES.map(csvRow).join(""),
          },
          [CONTENT_TYPES.json]: { schema: z.array(linkListEntry), example: EXAMPLE_ENTRIES },
        },
      },
      400: errorResponse("An unknown format", "format must be one of text, csv, json"),
    },
    rateLimit: RATE_LIMITS.export,
    readsUnlockCookie: true,
  },
};

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
