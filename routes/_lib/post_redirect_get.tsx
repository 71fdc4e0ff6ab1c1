/**
 * Rendering the start page, for `GET /` and for the answers to its forms posted without
 * JavaScript.
 * @module
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { HomePage } from "../../components/HomePage.tsx";
import type { Config } from "../../fresh.config.ts";
import { type DomainError, fieldOf } from "../../lib/errors.ts";
import type { Store } from "../../lib/kv/store.ts";
import { describeError, logLine } from "../../lib/log/mod.ts";
import {
  BULK_OUTCOME_TTL_MS,
  type BulkOutcome,
  CUSTOM_SLUG_PATTERN,
  findBulkOutcome,
  getLiveLink,
  keepBulkOutcome,
  type KeptOutcome,
  type KeptRow,
  MAX_BULK_ROWS,
  toLinkView,
} from "../../lib/links/mod.ts";
import type { BulkFormProps, BulkRow } from "../../islands/BulkForm.tsx";
import type { AppDeps } from "./env.ts";
import type { CreateFormProps } from "../../islands/CreateForm.tsx";
import { cookieOptions } from "./cookie.ts";
import { renderPage } from "./html.ts";
import { redirectWithPolicy } from "./redirect.ts";

/** What the start page shows besides empty forms. */
export interface HomeState {
  /** The create form's values, error or new link (and the time its card is told at). */
  create?: Omit<CreateFormProps, "slugPattern" | "now"> & { now?: number };
  /** The bulk form's lines, error or outcome. */
  bulk?: Omit<BulkFormProps, "maxRows">;
}

/** The start page with `state`, answered with `status`. */
export function renderHome(
  state: HomeState = {},
  status = 200,
  headers: Record<string, string> = {},
): Response {
  const create = { slugPattern: CUSTOM_SLUG_PATTERN.source, now: Date.now(), ...state.create };
  const bulk = { maxRows: MAX_BULK_ROWS, ...state.bulk };
  return renderPage(<HomePage create={create} bulk={bulk} />, status, headers);
}

// The cookie that shows a made link's card to the browser that made it, and to no one else.
const MADE_COOKIE = "lapse_made";
const MADE_COOKIE_SECONDS = 3600;

/**
 * Sends a browser on to the card of the link it has just made (post, redirect, get): the start
 * page at `/?made=<slug>`, an address that reloads without making the link again.
 */
export function toMadeLink(c: Context, config: Config, slug: string): Response {
  setCookie(c, MADE_COOKIE, slug, cookieOptions(config, { maxAge: MADE_COOKIE_SECONDS }));
  return redirectWithPolicy(c, `/?made=${encodeURIComponent(slug)}`, 303);
}

/** Whether this browser made the link `slug` (within the hour), so its card is shown. */
export function madeHere(c: Context, slug: string): boolean {
  return getCookie(c, MADE_COOKIE) === slug;
}

// The cookie that shows a bulk post's outcome to the browser that sent it, and to no one else.
const BULK_COOKIE = "lapse_bulk";

/**
 * Answers a browser's bulk post: the outcome is kept and the browser sent on to it (post,
 * redirect, get) at `/?bulk=<id>`, an address that reloads without making the links again. An
 * outcome the store does not keep (lines too long for one value, or a failed write) is answered
 * at once, as a page, from the links in hand: the links are made, so the answer never says
 * otherwise.
 */
export async function toBulkOutcome(
  c: Context,
  deps: Pick<AppDeps, "config" | "store" | "log">,
  outcomes: BulkOutcome[],
  passGiven: boolean,
): Promise<Response> {
  const { config, store, log } = deps;
  const rows = outcomes.map((outcome): KeptRow =>
    outcome.ok ? { ok: true, slug: outcome.record.slug, id: outcome.record.id } : failedRow(outcome)
  );
  const id = await keepBulkOutcome(store, { rows, passGiven }).catch((error: unknown) => {
    log(logLine("warn", "bulk outcome not kept", {
      requestId: c.get("requestId"),
      error: describeError(error),
    }));
    return null;
  });
  if (id === null) {
    const now = store.now();
    const shown = outcomes.map((outcome): BulkRow =>
      outcome.ok
        ? { ok: true, link: toLinkView(outcome.record, { baseUrl: config.baseUrl, now }) }
        : failedRow(outcome)
    );
    return renderHome({ bulk: bulkState(shown, rows, passGiven) }, 200, {
      "Cache-Control": "no-store",
    });
  }
  const maxAge = BULK_OUTCOME_TTL_MS / 1000;
  setCookie(c, BULK_COOKIE, id, cookieOptions(config, { maxAge }));
  return redirectWithPolicy(c, `/?bulk=${id}`, 303);
}

// A failed row as the page shows it and as it is kept: the line as sent, and why.
function failedRow(
  outcome: BulkOutcome & { ok: false },
): { ok: false; url: string; error: string } {
  return { ok: false, url: String(outcome.url ?? ""), error: outcome.error };
}

/** The outcome kept under `id` for this browser (within the hour), or `null`. */
export async function bulkOutcomeHere(
  c: Context,
  store: Store,
  id: string,
): Promise<KeptOutcome | null> {
  return getCookie(c, BULK_COOKIE) === id ? await findBulkOutcome(store, id) : null;
}

/**
 * The bulk form's state for a kept outcome: each made link as it is now (one deleted or expired
 * since says so), and the rest as {@linkcode bulkState} gives it.
 */
export async function bulkOutcomeState(
  deps: Pick<AppDeps, "config" | "store">,
  outcome: KeptOutcome,
): Promise<HomeState["bulk"]> {
  const { config, store } = deps;
  const now = store.now();
  const shown = await Promise.all(outcome.rows.map(async (row): Promise<BulkRow> => {
    if (!row.ok) return row;
    const record = await getLiveLink(store, row.slug);
    if (record === null || record.id !== row.id) {
      return { ok: false, url: `${config.baseUrl}/${row.slug}`, error: GONE_SINCE };
    }
    return { ok: true, link: toLinkView(record, { baseUrl: config.baseUrl, now }) };
  }));
  return bulkState(shown, outcome.rows, outcome.passGiven);
}

/**
 * The bulk form's state after a post: the rows `shown`, the lines that failed back in the field
 * (to be mended and sent again), and a word that the password, when one was given, must be typed
 * again for them.
 */
function bulkState(
  shown: BulkRow[],
  rows: KeptRow[],
  passGiven: boolean,
): HomeState["bulk"] {
  const urls = rows.flatMap((row) => (row.ok ? [] : [row.url])).join("\n");
  const passHint = passGiven && urls !== "" ? BULK_PASS_FOR_KEPT_LINES : null;
  return { rows: shown, urls, passHint };
}

/** A made link's row on its outcome page, once the link is deleted or has expired. */
export const GONE_SINCE = "deleted or expired since it was made";

/**
 * The start page for a refused create form: the reason, the field it names, and the fields but
 * the password, which is never sent back (the form says so when one was given).
 */
export function createFormErrorPage(
  fields: Record<string, string>,
  error: DomainError,
  status: number,
): Response {
  const { url, slug, title, note, maxVisits } = fields;
  const create = {
    values: { url, slug, title, note, maxVisits, passDropped: Boolean(fields.pass) },
    error: error.message,
    errorField: fieldOf(error),
  };
  return renderHome({ create }, status, { "Cache-Control": "no-store" });
}

/** Under the bulk form's password, after a refusal that dropped it. */
export const BULK_PASS_REFUSED = "Type it again: a refused form does not send it back.";

/** Under the bulk form's password, when lines that failed are kept and the password is not. */
export const BULK_PASS_FOR_KEPT_LINES =
  "Type it again to protect the lines kept above: the page does not send it back.";

/**
 * The start page for a refused bulk form: the reason, the field it names, and the lines as typed;
 * the password is never sent back, and the form says so when one was given.
 */
export function bulkFormErrorPage(
  fields: Record<string, string>,
  error: DomainError,
  status: number,
): Response {
  const bulk = {
    urls: fields.urls ?? "",
    error: error.message,
    errorField: fieldOf(error),
    passHint: fields.pass ? BULK_PASS_REFUSED : null,
  };
  return renderHome({ bulk }, status, { "Cache-Control": "no-store" });
}
