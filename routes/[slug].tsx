/**
 * `GET|HEAD /<slug>`: the redirect. A locked protected link answers 401 with its unlock page;
 * an expired or unknown one the 404 page.
 * @module
 */
import { Hono } from "hono";
import { UnlockPage } from "../components/UnlockPage.tsx";
import { isReservedSlug, isSlugLike, lookupLink } from "../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";
import { isUnlocked } from "./_lib/unlock.ts";
import { notFound } from "./_404.tsx";

/** Headers of every redirect: the referrer travels on, and no cache keeps the visit. */
export const REDIRECT_HEADERS: Readonly<Record<string, string>> = {
  "Referrer-Policy": "unsafe-url",
  "Cache-Control": "no-store",
};

/** The route. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/:slug", async (c) => {
    const slug = c.req.param("slug");
    if (!isSlugLike(slug) || isReservedSlug(slug)) return notFound(c, deps);
    const found = await lookupLink(deps.store, slug);
    if (found.status !== "live") return notFound(c, deps, found);
    const { record } = found;
    if (record.passHash !== null && !(await isUnlocked(c, deps, record))) {
      return renderPage(<UnlockPage slug={slug} />, 401, { "Cache-Control": "no-store" });
    }
    return new Response(null, {
      status: 302,
      headers: { Location: record.url, ...REDIRECT_HEADERS },
    });
  });
}
