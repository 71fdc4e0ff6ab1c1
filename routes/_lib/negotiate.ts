/**
 * Telling a browser's navigation and form posts from an API client.
 * @module
 */
import type { Context } from "hono";
import { parseAccept } from "hono/utils/accept";
import { isFormPost } from "./body.ts";
import type { AppEnv } from "./env.ts";

/**
 * Whether the request is a plain HTML form submitted by a browser, which should get a page
 * or a redirect rather than JSON: a form body and an `Accept` header that asks for HTML.
 */
export function isBrowserForm(c: Context<AppEnv>): boolean {
  return isFormPost(c) && asksForHtml(c);
}

/**
 * Whether the client asks for HTML by name (`text/html` or `application/xhtml+xml`, not refused
 * with `q=0`), as a browser's navigation does: it gets an error page where any other client gets
 * JSON (an error outside `/api/`).
 */
export function asksForHtml(c: Context): boolean {
  return takesOneOf(c.req.header("accept"), HTML_TYPES);
}

// What a browser's navigation names in `Accept`.
const HTML_TYPES: ReadonlySet<string> = new Set(["text/html", "application/xhtml+xml"]);

/**
 * Whether a header of the `Accept` family (`Accept`, `Accept-Encoding`) names one of `names`
 * (lower case), in any case, without refusing it with `q=0`.
 */
export function takesOneOf(header: string | undefined, names: ReadonlySet<string>): boolean {
  if (header === undefined) return false;
  return parseAccept(header).some((item) => item.q > 0 && names.has(item.type.toLowerCase()));
}
