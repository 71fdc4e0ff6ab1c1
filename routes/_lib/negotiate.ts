/**
 * Telling a browser's navigation and form posts from an API client.
 * @module
 */
import type { Context } from "hono";
import { parseAccept } from "hono/utils/accept";
import { isFormPost } from "./body.ts";

/**
 * Whether the request is a plain HTML form submitted by a browser, which should get a page
 * or a redirect rather than JSON: a form body and an `Accept` header that asks for HTML.
 */
export function isBrowserForm(c: Context): boolean {
  return isFormPost(c) && asksForHtml(c);
}

/**
 * Whether the client asks for HTML by name (`text/html` or `application/xhtml+xml`, not refused
 * with `q=0`), as a browser's navigation does: it gets an error page where any other client gets
 * JSON (an error outside `/api/`).
 */
export function asksForHtml(c: Context): boolean {
  const accept = c.req.header("accept");
  if (accept === undefined) return false;
  return parseAccept(accept).some((item) => item.q > 0 && HTML_TYPES.has(item.type.toLowerCase()));
}

// What a browser's navigation names in `Accept`.
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
