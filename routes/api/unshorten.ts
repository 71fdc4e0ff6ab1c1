/**
 * `GET /api/unshorten?slug=`: expands a slug or short URL to its link.
 * @module
 */
import { Hono } from "hono";
import { LinkExpiredError, LinkNotFoundError, LinkUsedUpError } from "../../lib/errors.ts";
import {
  findUsedUpLink,
  lookupLink,
  readCounters,
  readVisitsLeft,
  slugFromReference,
  toUnshortenView,
  unshortenQuery,
  unshortenView,
} from "../../lib/links/mod.ts";
import {
  errorResponse,
  jsonResponse,
  linkGone,
  NEVER_A_LINK,
  type RouteSpec,
} from "../_openapi/mod.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { EXAMPLE_ORIGIN, EXAMPLE_UNSHORTEN } from "../_lib/examples.ts";
import { parseQuery } from "../_lib/params.ts";
import { isUnlocked } from "../_lib/unlock.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Links",
    summary: "Expand a slug or short URL",
    description: "Takes a bare slug or a full short URL of this service (its host or the `www.` " +
      "variant; another host is an invalid slug). A protected link's destination is `null` " +
      "unless the request carries its unlock cookie. An expired link answers 410, as does one " +
      "whose last visit used it up (`usedUp`, until its deadline), one that never existed 404. " +
      "Not rate limited.",
    query: unshortenQuery,
    parameterExample: { slug: `${EXAMPLE_ORIGIN}/hello` },
    responses: {
      200: jsonResponse("The link, with its clicks", {
        schema: unshortenView,
        example: EXAMPLE_UNSHORTEN,
      }),
      400: errorResponse("No reference, or not one of this service's links", "invalid slug"),
      404: NEVER_A_LINK,
      410: linkGone({ usedUp: true }),
    },
    readsUnlockCookie: true,
  },
};

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
      { "Cache-Control": "no-store" },
    );
  });
}
