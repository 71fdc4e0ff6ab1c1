/**
 * `GET /`: the start page with the create and bulk forms. `/?slug=name` fills in the custom slug
 * (the 404 page links there to claim a free name); `/?made=name` shows the card of a live link
 * this browser has just made, where a create form posted without JavaScript lands, and
 * `/?bulk=id` the outcome of a bulk form posted so.
 * @module
 */
import { Hono } from "hono";
import { getLiveLink, mayNameLink, toLinkView } from "../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "./_lib/env.ts";
import {
  bulkOutcomeHere,
  bulkOutcomeState,
  type HomeState,
  madeHere,
  renderHome,
} from "./_lib/post_redirect_get.tsx";

// Longer than any custom slug, so a wrong one is still shown and the hint says why.
const MAX_PREFILL = 64;

/** The route. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().get("/", async (c) => {
    const made = c.req.query("made");
    const bulk = c.req.query("bulk");
    // A card's days left change, and a removed link's card must not come back: with or without
    // one, a `made` or `bulk` page is never cached.
    const headers: Record<string, string> = made === undefined && bulk === undefined
      ? {}
      : { "Cache-Control": "no-store" };
    // Shown only to the browser that sent the post, as the card below.
    const outcome = bulk === undefined ? null : await bulkOutcomeHere(c, store, bulk);
    if (outcome !== null) {
      return renderHome({ bulk: await bulkOutcomeState(deps, outcome) }, 200, headers);
    }
    // Shown only where the link was made: to anyone else, the card would vouch for a stranger's
    // title as "your" link.
    const record = made !== undefined && mayNameLink(made) && madeHere(c, made)
      ? await getLiveLink(store, made)
      : null;
    if (record !== null) {
      const now = store.now();
      const created = toLinkView(record, { baseUrl: config.baseUrl, now });
      return renderHome({ create: { created, now } }, 200, headers);
    }
    const slug = (c.req.query("slug") ?? "").trim().slice(0, MAX_PREFILL);
    const state: HomeState = slug ? { create: { values: { slug } } } : {};
    return renderHome(state, 200, headers);
  });
}
