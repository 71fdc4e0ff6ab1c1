/**
 * Bulk creation: up to ten links in one request, each row on its own.
 * @module
 */
import { z } from "zod";
import { DomainError, SlugTakenError, StoreUnavailableError } from "../errors.ts";
import { hashPassword } from "../passwords/mod.ts";
import type { Store } from "../kv/store.ts";
import { parseInput } from "../validation.ts";
import { createLink, type CreateLinkOptions } from "./create.ts";
import { bulkLinkInput, type LinkInput, password } from "./input.ts";
import type { DatedLinkRecord } from "./record.ts";

/** Most rows in one bulk request. */
export const MAX_BULK_ROWS = 10;

/**
 * One bulk row as it is parsed: a url, or the fields of one link. Rows are taken as they come
 * and parsed one by one, so that a bad row fails alone; this is what each must be.
 */
export const bulkRow = z.union([bulkLinkInput.shape.url, bulkLinkInput]);

/** The body of `POST /api/bulk`: rows are URLs or `{url, slug?, title?, note?, maxVisits?}`. */
export const bulkInput = z.object({
  urls: z.array(z.unknown())
    .min(1, "urls must not be empty")
    .max(MAX_BULK_ROWS, `max ${MAX_BULK_ROWS} links per request`)
    .describe("The rows, at most ten: each a url, or `{url, slug?, title?, note?, maxVisits?}`"),
  pass: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    password.optional(),
  ).describe("A password protecting every link made"),
});

/** The body of `POST /api/bulk`, after parsing. */
export type BulkInput = z.infer<typeof bulkInput>;

/** One row's outcome: the new link, or the input's url (null when it has none) and why it failed. */
export type BulkOutcome =
  | { ok: true; record: DatedLinkRecord }
  | { ok: false; url: unknown; error: string };

/**
 * Makes a link of every row, as a single create would; `pass` protects each. Outcomes come in
 * row order; a failed row (a slug repeated in the request included) undoes nothing, and a store
 * failure throws, leaving rows made. The password is hashed once, first, for every row, so a
 * full hashing queue refuses the whole request (`BusyError`).
 */
export async function createLinks(
  store: Store,
  input: BulkInput,
  options: Omit<CreateLinkOptions, "passHash">,
): Promise<BulkOutcome[]> {
  const seen = new Set<string>();
  const rows = input.urls.map((row) => {
    // A row is an object of fields, or anything else taken as its url.
    const fieldsGiven = typeof row === "object" && row !== null && !Array.isArray(row);
    const url = (fieldsGiven ? (row as { url?: unknown }).url : row) ?? null;
    try {
      const fields: LinkInput = parseInput(bulkLinkInput, fieldsGiven ? row : { url: row });
      if (fields.slug !== undefined) {
        if (seen.has(fields.slug)) throw new SlugTakenError(fields.slug);
        seen.add(fields.slug);
      }
      return { url, fields };
    } catch (error) {
      return { url, error: failure(error) };
    }
  });
  const valid = rows.some((row) => row.fields !== undefined);
  // One hash for every row: they share the password, and a hash is ~80 ms of a core.
  const passHash = input.pass !== undefined && valid
    ? await hashPassword(input.pass, { client: options.client })
    : undefined;
  return await Promise.all(rows.map(async (row): Promise<BulkOutcome> => {
    if (row.fields === undefined) return { ok: false, url: row.url, error: row.error! };
    try {
      const record = await createLink(store, { ...row.fields, pass: input.pass }, {
        ...options,
        passHash,
      });
      return { ok: true, record };
    } catch (error) {
      return { ok: false, url: row.url, error: failure(error) };
    }
  }));
}

/** A row's failure as its sentence; anything but a row's own fault is thrown on. */
function failure(error: unknown): string {
  if (!(error instanceof DomainError) || error instanceof StoreUnavailableError) throw error;
  return error.message;
}
