/**
 * `POST /api/unlock`: checks a protected link's password and sets its unlock cookie.
 * @module
 */
import { Hono } from "hono";
import {
  type DomainError,
  fieldOf,
  LinkNotFoundError,
  NotProtectedError,
  RateLimitedError,
} from "../../lib/errors.ts";
import { type LinkActionDone } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { UNLOCK_PER_LINK, unlockLink } from "../../lib/unlock/mod.ts";
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
import { unlockInput } from "../../lib/links/input.ts";
export { spec } from "./unlock_spec.ts";

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
      return c.json({ ok: true, slug: record.slug } satisfies LinkActionDone);
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
