/**
 * `POST /api/unlock`: checks a protected link's password and sets its unlock cookie.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import {
  type DomainError,
  fieldOf,
  LinkNotFoundError,
  NotProtectedError,
  RateLimitedError,
  WrongPasswordError,
} from "../../lib/errors.ts";
import {
  existingSlug,
  type LinkConfirmation,
  linkConfirmation,
  password,
} from "../../lib/links/mod.ts";
import { errorResponse, jsonResponse, linkNotFound, type RouteSpec } from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { UNLOCK_PER_LINK, unlockCookieName, unlockLink } from "../../lib/unlock/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import type { UnlockProblem } from "../../components/UnlockPage.tsx";
import { readObjectBody } from "../_lib/body.ts";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { clientAddress } from "../_lib/client.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { redirectWithPolicy } from "../_lib/redirect.ts";
import { setUnlockCookie } from "../_lib/unlock.ts";
import { unlockPage } from "../_lib/unlock_page.tsx";
import { formErrorPage } from "../_middleware/form_errors.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

/** The body of `POST /api/unlock`. */
export const unlockInput = z.object({
  slug: existingSlug,
  pass: password.min(1),
});

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  post: {
    tag: "Protected links",
    summary: "Unlock a protected link",
    description: "Checks the password and, when it is right, sets the link's unlock cookie " +
      "(see the `unlockCookie` security scheme): the redirect then proceeds, and the " +
      "destination shows in unshorten, the list and the export. The destination is in " +
      "neither answer. A browser's form post (a form body and `Accept: text/html`) that " +
      "succeeds answers 303 to the link, any other request JSON; a browser's form post that " +
      "fails gets the unlock page again, with the reason, under the status below (without " +
      "the form when the slug is missing or impossible, or the link unknown or open). Besides " +
      "the 10 a minute per client, a client (an IPv4 address, an IPv6 /64) gets 5 wrong " +
      "passwords on a link per 10-minute window, and a link takes 130 from everyone (also 429; " +
      "fixed windows, as the rate limits). A " +
      "right password costs no try.",
    body: { schema: unlockInput, example: { slug: "secret", pass: "correct horse" }, form: true },
    responses: {
      200: jsonResponse("Unlocked: the cookie is set", {
        schema: linkConfirmation,
        example: { ok: true, slug: "secret" },
        headers: {
          "Set-Cookie": {
            description: "The unlock cookie of this link",
            example: `${unlockCookieName("secret")}=<token>; Max-Age=604800; Path=/; ` +
              "HttpOnly; SameSite=Lax",
          },
        },
      }),
      303: {
        description: "Unlocked by a browser's form post (`Accept: text/html`): on to the link, " +
          "the cookie set",
        headers: {
          Location: { description: "The link's path", example: "/secret" },
          "Set-Cookie": { description: "The unlock cookie of this link" },
        },
      },
      400: errorResponse(
        "A missing field, or a link that has no password",
        new NotProtectedError("hello").message,
      ),
      403: errorResponse("The password is wrong", new WrongPasswordError().message),
      404: linkNotFound("No live link has the slug", "secret"),
    },
    rateLimit: RATE_LIMITS.unlock,
  },
};

/**
 * The route: 200 `{ok: true, slug}` with the cookie (a browser's form post gets 303 to the link);
 * 403 for a wrong password, 404 for an unknown link, 400 for an open one. A browser's form
 * post that fails gets the unlock page again, with the reason, under the same status.
 */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().post(
    "/",
    formErrorPage(unlockFormErrorPage),
    rateLimit(deps, RATE_LIMITS.unlock),
    async (c) => {
      const input = parseInput(unlockInput, await readObjectBody(c));
      const client = clientAddress(c, deps.config.trustProxy);
      const attempt = { slug: input.slug, password: input.pass, client };
      const record = await unlockLink(deps.store, attempt).catch((error) => {
        if (error instanceof RateLimitedError) deps.metrics.rateLimited.inc(UNLOCK_PER_LINK.name);
        throw error;
      });
      await setUnlockCookie(c, deps, record);
      // A browser's form goes on to the link; any other client, whatever its body, gets JSON.
      if (isBrowserForm(c)) return redirectWithPolicy(c, `/${record.slug}`, 303);
      return c.json({ ok: true, slug: record.slug } satisfies LinkConfirmation);
    },
  );
}

// The form again with the reason; but no form when there is no password to ask for.
function unlockFormErrorPage(fields: Record<string, string>, error: DomainError, status: number) {
  const slug = fields.slug?.trim() ?? "";
  const problem: UnlockProblem | undefined = error instanceof LinkNotFoundError
    ? "not-found"
    : fieldOf(error) === "slug"
    ? "bad-slug"
    : error instanceof NotProtectedError
    ? "not-protected"
    : undefined;
  return unlockPage({ slug, problem, error: error.message }, status);
}
