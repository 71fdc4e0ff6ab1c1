/**
 * `GET /`: the start page with the create and bulk forms; `/?slug=name` fills in the custom slug
 * (the 404 page links there to claim a free name).
 * @module
 */
import { Hono } from "hono";
import type { AppEnv } from "./_lib/env.ts";
import { renderHome } from "./_lib/home.tsx";

// Longer than any custom slug, so a wrong one is still shown and the hint says why.
const MAX_PREFILL = 64;

/** The route. */
export function makeRoute(): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", (c) => {
    const slug = (c.req.query("slug") ?? "").trim().slice(0, MAX_PREFILL);
    return renderHome(slug ? { create: { values: { slug } } } : {});
  });
}
