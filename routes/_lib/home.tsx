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
import { CUSTOM_SLUG_PATTERN, MAX_BULK_ROWS } from "../../lib/links/mod.ts";
import type { BulkFormProps } from "../../islands/BulkForm.tsx";
import type { CreateFormProps } from "../../islands/CreateForm.tsx";
import { cookieOptions } from "./cookie.ts";
import { renderPage } from "./html.ts";
import { redirectWithPolicy } from "./redirect.ts";

/** What the start page shows besides empty forms. */
export interface HomeState {
  /** The create form's values, error or new link. */
  create?: Omit<CreateFormProps, "slugPattern">;
  /** The bulk form's lines, error or outcome. */
  bulk?: Omit<BulkFormProps, "maxRows">;
}

/** The start page with `state`, answered with `status`. */
export function renderHome(
  state: HomeState = {},
  status = 200,
  headers: Record<string, string> = {},
): Response {
  const create = { slugPattern: CUSTOM_SLUG_PATTERN.source, ...state.create };
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

/**
 * The start page for a refused create form: the reason, the field it names, and the fields but
 * the password, which is never sent back (the form says so when one was given).
 */
export function createFormErrorPage(
  fields: Record<string, string>,
  error: DomainError,
  status: number,
): Response {
  const { url, slug, title, note } = fields;
  const create = {
    values: { url, slug, title, note, passDropped: Boolean(fields.pass) },
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
