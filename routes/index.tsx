/**
 * `GET /`: the start page with the create and bulk forms. `/?slug=name` fills in the custom slug
 * (the 404 page links there to claim a free name); `/?made=name` shows a live link's card, where
 * a create form posted without JavaScript lands.
 * @module
 */
import { Hono } from "hono";
import { getLiveLink, isSlugLike, toLinkView } from "../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import { renderHome } from "./_lib/home.tsx";

// Longer than any custom slug, so a wrong one is still shown and the hint says why.
const MAX_PREFILL = 64;

/** The route. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().get("/", async (c) => {
    const made = c.req.query("made");
    if (made !== undefined) {
      const record = isSlugLike(made) ? await getLiveLink(store, made) : null;
      // The card's days left change, and a removed link's card must not come back from a cache.
      const headers = { "Cache-Control": "no-store" };
      if (record === null) return renderHome({}, 200, headers);
      // Anyone may open this address: a protected link's destination stays hidden on it.
      const created = toLinkView(record, { baseUrl: config.baseUrl, now: store.now() });
      return renderHome({ create: { created } }, 200, headers);
    }
    const slug = (c.req.query("slug") ?? "").trim().slice(0, MAX_PREFILL);
    return renderHome(slug ? { create: { values: { slug } } } : {});
  });
}
