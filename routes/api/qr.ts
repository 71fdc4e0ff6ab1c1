/**
 * `GET /api/qr?slug=`: a QR code of a live link's short URL, as SVG.
 * @module
 */
import { Hono } from "hono";
import { LinkNotFoundError } from "../../lib/errors.ts";
import { getLiveLink, shortUrlOf, slugQuery } from "../../lib/links/mod.ts";
import { renderQrSvg } from "../../lib/qr/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { QR_MAX_AGE_SECONDS, SVG_TYPE } from "./qr_spec.ts";
export { QR_MAX_AGE_SECONDS, spec, SVG_TYPE } from "./qr_spec.ts";

/** The route: the SVG, or 404 JSON for an unknown or expired link. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().get("/", async (c) => {
    const { slug } = parseQuery(c, slugQuery);
    const record = await getLiveLink(store, slug);
    if (record === null) throw new LinkNotFoundError(slug);
    const svg = await renderQrSvg(shortUrlOf(record.slug, config.baseUrl));
    const left = Math.floor((record.expiresAt - store.now()) / 1000);
    return c.body(svg, 200, {
      "Content-Type": SVG_TYPE,
      "Cache-Control": `public, max-age=${Math.max(0, Math.min(QR_MAX_AGE_SECONDS, left))}`,
      "Content-Security-Policy": "default-src 'none'",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
