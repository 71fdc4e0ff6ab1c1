/**
 * The answers for a request nothing is routed to: a 405 with `Allow` when the path answers other
 * methods (a live link's name included), else 404: JSON under `/api/`, else the page that, for a
 * single slug-like segment, says where an expired link pointed, that a link was used up, or that
 * the name is free.
 * @module
 */
import type { Context } from "hono";
import { type MissingLink, NotFoundPage } from "../components/NotFoundPage.tsx";
import {
  CUSTOM_SLUG_PATTERN,
  findUsedUpLink,
  type LinkLookup,
  lookupLink,
  mayNameLink,
} from "../lib/links/mod.ts";
import type { AppDeps } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";
import { describeMissing, singleSegment } from "./_lib/missing_link.ts";

/**
 * Answers 404 for the request's path, or 405 when it names a live link (the link answers only
 * GET, HEAD and POST); `known` is the store's answer when already asked.
 */
export async function notFound(
  c: Context,
  deps: AppDeps,
  known?: LinkLookup,
): Promise<Response> {
  const path = c.req.path;
  if (path === "/api" || path.startsWith("/api/")) {
    return c.json({ error: `no such endpoint: ${c.req.method} ${path}` }, 404);
  }
  const slug = singleSegment(path);
  const found = slug === null || !mayNameLink(slug)
    ? null
    : known ?? await lookupLink(deps.store, slug);
  // The link's route answers a live link's GET, HEAD and POST; any other method comes here.
  if (found?.status === "live") return methodNotAllowed(path, ["GET", "HEAD", "POST"]);
  // A link its last visit used up is gone from the store but for a mark under its slug.
  const usedUp = slug !== null && found?.status === "missing"
    ? await findUsedUpLink(deps.store, slug)
    : null;
  const missing: MissingLink = slug === null || found === null
    ? { kind: "none" }
    : usedUp !== null
    ? {
      kind: "used-up",
      slug,
      protected: usedUp.protected,
      claimable: CUSTOM_SLUG_PATTERN.test(slug),
    }
    : describeMissing(slug, found);
  return notFoundPage(path, missing);
}

/**
 * The 404 page for a page about the link `slug` (its own page, `/links/<slug>`) that no live
 * link has: it says where an expired link pointed, or that the name is free, as `/<slug>` does.
 */
export async function linkNotFound(deps: AppDeps, path: string, slug: string): Promise<Response> {
  const found = mayNameLink(slug) ? await lookupLink(deps.store, slug) : null;
  const missing = found === null || found.status === "live"
    ? { kind: "none" as const }
    : describeMissing(slug, found);
  return notFoundPage(path, missing);
}

function notFoundPage(path: string, missing: MissingLink): Response {
  return renderPage(<NotFoundPage path={path} missing={missing} />, 404, {
    "Cache-Control": "no-store",
  });
}

/** 405 with `Allow` and the API's JSON error: `path` answers only the `allowed` methods. */
export function methodNotAllowed(path: string, allowed: string[]): Response {
  const allow = allowed.join(", ");
  return Response.json(
    { error: `method not allowed; ${path} answers ${allow}` },
    { status: 405, headers: { Allow: allow } },
  );
}
