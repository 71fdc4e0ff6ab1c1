/**
 * Telling a browser's form navigation from an API client.
 * @module
 */
import type { Context } from "hono";
import { isFormPost } from "./body.ts";

/**
 * Whether the request is a plain HTML form submitted by a browser, which should get a page
 * or a redirect rather than JSON: a form body and an `Accept` header that asks for HTML.
 */
export function isBrowserForm(c: Context): boolean {
  return isFormPost(c) && (c.req.header("accept") ?? "").includes("text/html");
}
