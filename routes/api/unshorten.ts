/**
 * `GET /api/unshorten?slug=`: expands a slug or short URL to its link.
 * @module
 */
import { Hono } from "hono";
import { InvalidInputError, LinkExpiredError, LinkNotFoundError } from "../../lib/errors.ts";
import {
  lookupLink,
  readCounters,
  slugFromReference,
  toUnshortenView,
} from "../../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { isUnlocked } from "../_lib/unlock.ts";

/** The route: the link with its clicks; 410 when expired, 404 when it never existed. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  return new Hono<AppEnv>().get("/", async (c) => {
    const reference = c.req.query("slug") ?? c.req.query("url");
    if (!reference?.trim()) throw new InvalidInputError("slug is required");
    const slug = slugFromReference(reference, config.serviceHost);
    const found = await lookupLink(store, slug);
    if (found.status === "missing") throw new LinkNotFoundError(slug);
    if (found.status === "expired") throw new LinkExpiredError(slug, found.record.expiresAt);
    const [counters] = await readCounters(store, [found.record.id]);
    const unlocked = await isUnlocked(c, deps, found.record);
    return c.json(
      toUnshortenView(found.record, counters!, {
        baseUrl: config.baseUrl,
        now: store.now(),
        unlocked,
      }),
    );
  });
}
