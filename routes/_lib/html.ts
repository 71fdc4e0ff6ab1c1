/**
 * Rendering pages: server-side Preact with the headers every page carries.
 * @module
 */
import type { VNode } from "preact";
import { render } from "preact-render-to-string";

/** The Content-Security-Policy of every page: no inline script, nothing from elsewhere. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The policy of a page whose form ends on the link's destination (the unlock page, the Open
 * page of a limited link): the strict one, but its form may post to a redirect that ends on
 * another site. Chromium checks `form-action` along the whole redirect chain of a form post: a
 * right password answers 303 to the link, which redirects to its destination, and Open answers
 * 303 to the destination.
 */
export const ONWARD_FORM_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
  "form-action 'self'",
  "form-action 'self' http: https:",
);

/** Headers of every HTML page. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};

const encoder = new TextEncoder();

/**
 * Renders `page` to a full HTML document with the page headers. Its length is a header too, so
 * that `HEAD`, whose answer is this one without the body, tells the same length as `GET`.
 */
export function renderPage(page: VNode, status = 200, headers: Record<string, string> = {}) {
  const html = encoder.encode(`<!DOCTYPE html>${render(page)}`);
  return new Response(html, {
    status,
    headers: { ...PAGE_HEADERS, "Content-Length": String(html.byteLength), ...headers },
  });
}
