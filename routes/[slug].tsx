/**
 * `GET|HEAD /<slug>`: the redirect. A locked protected link answers 401 with its unlock page;
 * an expired or unknown one the 404 page.
 * @module
 */
import { type Context, Hono } from "hono";
import { UnlockPage } from "../components/UnlockPage.tsx";
import { z } from "zod";
import {
  type DatedLinkRecord,
  isReservedSlug,
  isSlugLike,
  lookupLink,
  SLUG_LIKE_PATTERN,
} from "../lib/links/mod.ts";
import type { RouteSpec } from "../lib/openapi/mod.ts";
import { clientAddress } from "./_lib/client.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";
import { isUnlocked } from "./_lib/unlock.ts";
import { notFound } from "./_404.tsx";

const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string(), example: '<!DOCTYPE html><html lang="en">…' } },
});

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Redirect",
    summary: "Follow a short link",
    description: "Redirects to the destination. A protected link needs its unlock cookie; " +
      "without it the answer is 401 with the unlock page. An expired or unknown slug gets " +
      "the 404 page, which says where an expired link pointed (a protected one: only that it " +
      "was protected) or that the name is free. HEAD answers the same status and headers " +
      "without a body, and records no click. Not rate limited.",
    path: z.object({ slug: z.string().regex(SLUG_LIKE_PATTERN).describe("The link's slug") }),
    parameterExample: { slug: "hello" },
    responses: {
      302: {
        description: "On to the destination",
        headers: {
          Location: { description: "The destination", example: "https://example.com/a/long/path" },
          "Referrer-Policy": {
            description: "`unsafe-url`: the referrer travels on",
            example: "unsafe-url",
          },
          "Cache-Control": {
            description: "`no-store`: no cache absorbs a visit",
            example: "no-store",
          },
        },
      },
      401: page("A protected link without its unlock cookie: the unlock page"),
      404: page("No live link has the slug: the 404 page"),
      503: page("The store did not answer: an error page"),
    },
    store: false,
    readsUnlockCookie: true,
  },
};

/** Headers of every redirect: the referrer travels on, and no cache keeps the visit. */
export const REDIRECT_HEADERS: Readonly<Record<string, string>> = {
  "Referrer-Policy": "unsafe-url",
  "Cache-Control": "no-store",
};

// Headers a trusted proxy may set to the client's country, in order of preference.
const COUNTRY_HEADERS = ["cf-ipcountry", "x-vercel-ip-country", "x-country-code"];

/** Records the visit for the click figures; tracking never breaks a redirect. */
function recordVisit(c: Context<AppEnv>, deps: AppDeps, record: DatedLinkRecord): void {
  try {
    const trusted = deps.config.trustProxy;
    deps.clicks.record(record, {
      userAgent: c.req.header("user-agent") ?? "",
      referer: c.req.header("referer") ?? "",
      client: clientAddress(c, trusted),
      country: trusted ? COUNTRY_HEADERS.map((name) => c.req.header(name)).find(Boolean) ?? "" : "",
    });
  } catch (error) {
    console.error("recording a click failed:", error);
  }
}

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
    if (c.req.method !== "HEAD") recordVisit(c, deps, record);
    return new Response(null, {
      status: 302,
      headers: { Location: record.url, ...REDIRECT_HEADERS },
    });
  });
}
