/**
 * `GET /api/unshorten?slug=`: expands a slug or short URL to its link.
 * @module
 */
import { Hono } from "hono";
import {
  LinkBlockedError,
  LinkExpiredError,
  LinkNotFoundError,
  LinkUsedUpError,
} from "../../lib/errors.ts";
import {
  findUsedUpLink,
  lookupLink,
  readCounters,
  readVisitsLeft,
  slugFromReference,
  toUnshortenView,
  unshortenQuery,
} from "../../lib/links/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { parseQuery } from "../_lib/params.ts";
import { cacheControlOf, isUnlocked } from "../_lib/unlock.ts";
export { spec } from "./unshorten_spec.ts";

/** The route: the link with its clicks; 410 when expired, 404 when it never existed. */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  const { config, store } = deps;
  const base = new URL(config.baseUrl);
  const servicePort = base.port || (base.protocol === "https:" ? "443" : "80");
  return new Hono<AppEnv>().get("/", async (c) => {
    const reference = parseQuery(c, unshortenQuery);
    const slug = slugFromReference(reference, config.serviceHost, { port: servicePort });
    const found = await lookupLink(store, slug);
    if (found.status === "missing") {
      if (await findUsedUpLink(store, slug) !== null) throw new LinkUsedUpError(slug);
      throw new LinkNotFoundError(slug);
    }
    if (found.status === "expired") throw new LinkExpiredError(slug, found.record.expiresAt);
    if (deps.blocklist.blocksUrl(found.record.url)) throw new LinkBlockedError(slug);
    const [[counters], [visitsLeft]] = await Promise.all([
      readCounters(store, [found.record.id]),
      readVisitsLeft(store, [found.record]),
    ]);
    const unlocked = await isUnlocked(c, deps, found.record);
    // Its figures move, and with the cookie it shows a protected destination: no cache keeps it.
    return c.json(
      toUnshortenView(found.record, { ...counters!, visitsLeft: visitsLeft! }, {
        baseUrl: config.baseUrl,
        now: store.now(),
        unlocked,
      }),
      200,
      { "Cache-Control": cacheControlOf(unlocked && found.record.passHash !== null) },
    );
  });
}
