/**
 * Telling a browser's navigation and form posts from an API client.
 * @module
 */
import type { Context } from "hono";
import { isFormPost } from "./body.ts";

/**
 * Whether the request is a plain HTML form submitted by a browser, which should get a page
 * or a redirect rather than JSON: a form body and an `Accept` header that asks for HTML.
 */
export function isBrowserForm(c: Context): boolean {
  return isFormPost(c) && asksForHtml(c);
}

/**
 * Whether the client asks for HTML by name, as a browser's navigation does: it gets a page where
 * any other client gets JSON (an error outside `/api/`, a locked link).
 */
export function asksForHtml(c: Context): boolean {
  return (c.req.header("accept") ?? "").includes("text/html");
}
