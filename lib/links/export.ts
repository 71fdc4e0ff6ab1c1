/**
 * The export formats: plain text lines, CSV rows.
 * @module
 */
import type { LinkListEntry } from "./views.ts";

/** The export formats. */
export const EXPORT_FORMATS = ["text", "csv", "json"] as const;

/** One of {@linkcode EXPORT_FORMATS}. */
export type ExportFormat = typeof EXPORT_FORMATS[number];

/** The columns of the CSV export: the fields of a list entry. */
export const CSV_COLUMNS: readonly (keyof LinkListEntry)[] = [
  "slug",
  "shortUrl",
  "url",
  "host",
  "title",
  "note",
  "clicks",
  "protected",
  "createdAt",
  "lastUsedAt",
  "expiresAt",
  "expiresInDays",
  "maxVisits",
  "visitsLeft",
];

/** Shown instead of a protected link's destination. */
export const PROTECTED_PLACEHOLDER = "(protected)";

/** Shown instead of a limited link's destination (one without a password). */
export const LIMITED_PLACEHOLDER = "(limited)";

/** What the export shows in place of a withheld destination. */
function placeholderOf(entry: LinkListEntry): string {
  return entry.protected ? PROTECTED_PLACEHOLDER : LIMITED_PLACEHOLDER;
}

/** The text export's line: short URL, destination and deadline, tab separated. */
export function textLine(entry: LinkListEntry): string {
  return `${entry.shortUrl}\t${entry.url ?? placeholderOf(entry)}\t${entry.expiresAt}\n`;
}

/** The CSV header row. */
export function csvHeader(): string {
  return `${CSV_COLUMNS.join(",")}\r\n`;
}

/** One CSV row (RFC 4180), a withheld destination shown as `(protected)` or `(limited)`. */
export function csvRow(entry: LinkListEntry): string {
  const cells = CSV_COLUMNS.map((column) => {
    const value = entry[column];
    if (column === "url" && value === null) return placeholderOf(entry);
    return csvCell(value === null ? "" : String(value));
  });
  return `${cells.join(",")}\r\n`;
}

/**
 * One CSV cell: quoted when it holds a comma, quote or line break. A cell that a spreadsheet
 * would run as a formula (starting with `= + - @`, tab or CR) is prefixed with `'`.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
