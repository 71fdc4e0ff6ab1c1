/**
 * `POST /api/unlock`: checks a protected link's password and sets its unlock cookie.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { DomainError } from "../../lib/errors.ts";
import { existingSlug, password } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { unlockLink } from "../../lib/unlock/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { UnlockPage } from "../../components/UnlockPage.tsx";
import { isFormPost, readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { renderPage } from "../_lib/html.ts";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { setUnlockCookie } from "../_lib/unlock.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";
import { statusOf } from "../_middleware/errors.tsx";

/** The body of `POST /api/unlock`. */
export const unlockInput = z.object({
  slug: existingSlug,
  pass: password.min(1),
});

/**
 * The route: 200 `{ok: true, slug}` with the cookie (a form post gets 303 to the link);
 * 403 for a wrong password, 404 for an unknown link, 400 for an open one. A browser's form
 * post that fails gets the unlock page again, with the reason, under the same status.
 */
export function makeRoute(deps: AppDeps): Hono<AppEnv> {
  return new Hono<AppEnv>().post("/", rateLimit(deps, RATE_LIMITS.unlock), async (c) => {
    const input = parseInput(unlockInput, await readObjectBody(c));
    try {
      const record = await unlockLink(deps.store, input.slug, input.pass);
      await setUnlockCookie(c, deps, record);
      if (isFormPost(c)) return c.redirect(`/${record.slug}`, 303);
      return c.json({ ok: true, slug: record.slug });
    } catch (error) {
      // A browser that posted the plain form sees the form again, with the reason.
      if (!isBrowserForm(c) || !(error instanceof DomainError)) throw error;
      return renderPage(<UnlockPage slug={input.slug} error={error.message} />, statusOf(error));
    }
  });
}
