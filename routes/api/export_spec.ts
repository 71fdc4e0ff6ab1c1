/**
 * The OpenAPI description of `GET /api/export`, beside its handler.
 * @module
 */
import { z } from "zod";
import { csvHeader, csvRow, exportQuery, linkListEntry, textLine } from "../../lib/links/mod.ts";
import type { ExportFormat } from "../../lib/links/mod.ts";
import { errorResponseSpec, type RouteSpec } from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { EXAMPLE_LIST_ENTRY, EXAMPLE_PROTECTED_ENTRY } from "../_lib/examples.ts";
export const CONTENT_TYPES: Record<ExportFormat, string> = {
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
      400: errorResponseSpec("An unknown format", "format must be one of text, csv, json"),
    },
    rateLimit: RATE_LIMITS.export,
    readsUnlockCookie: true,
  },
};
