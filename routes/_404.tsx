/**
 * The 404 answer: JSON under `/api/`, else the page that, for a single slug-like segment,
 * says where an expired link pointed or that the name is free.
 * @module
 */
import type { Context } from "hono";
import { type MissingLink, NotFoundPage } from "../components/NotFoundPage.tsx";
import { isReservedSlug, isSlugLike, type LinkLookup, lookupLink } from "../lib/links/mod.ts";
import type { AppDeps } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";

/** Answers 404 for the request's path; `known` is the store's answer when already asked. */
export async function notFound(
  c: Context,
  deps: AppDeps,
  known?: LinkLookup,
): Promise<Response> {
  const path = c.req.path;
  if (path === "/api" || path.startsWith("/api/")) {
    return c.json({ error: `no such endpoint: ${c.req.method} ${path}` }, 404);
  }
  const missing = await describeMissing(path, deps, known);
  return renderPage(<NotFoundPage path={path} missing={missing} />, 404, {
    "Cache-Control": "no-store",
  });
}

async function describeMissing(
  path: string,
  deps: AppDeps,
  known?: LinkLookup,
): Promise<MissingLink> {
  const slug = singleSegment(path);
  if (slug === null || !isSlugLike(slug) || isReservedSlug(slug)) return { kind: "none" };
  const found = known ?? await lookupLink(deps.store, slug);
  if (found.status === "expired") {
    const { record } = found;
    return {
      kind: "expired",
      slug,
      expiresAt: new Date(record.expiresAt).toISOString(),
      url: record.passHash === null ? record.url : null,
    };
  }
  // A live link is answered by the redirect route; reaching here it vanished meanwhile.
  return { kind: "free", slug };
}

function singleSegment(path: string): string | null {
  const match = /^\/([^/]+)$/.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}
