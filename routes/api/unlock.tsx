/**
 * `POST /api/unlock`: checks a protected link's password and sets its unlock cookie.
 * @module
 */
import { Hono } from "hono";
import { z } from "zod";
import { existingSlug, password } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { unlockLink } from "../../lib/unlock/mod.ts";
import { parseInput } from "../../lib/validation.ts";
import { UnlockPage } from "../../components/UnlockPage.tsx";
import { isFormPost, readObjectBody } from "../_lib/body.ts";
import type { AppDeps, AppEnv } from "../_lib/env.ts";
import { renderPage } from "../_lib/html.ts";
import { setUnlockCookie } from "../_lib/unlock.ts";
import { formErrorPage } from "../_middleware/form_errors.ts";
import { rateLimit } from "../_middleware/rate_limit.ts";

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
  return new Hono<AppEnv>().post(
    "/",
    formErrorPage(unlockFormErrorPage),
    rateLimit(deps, RATE_LIMITS.unlock),
    async (c) => {
      const input = parseInput(unlockInput, await readObjectBody(c));
      const record = await unlockLink(deps.store, input.slug, input.pass);
      await setUnlockCookie(c, deps, record);
      if (isFormPost(c)) return c.redirect(`/${record.slug}`, 303);
      return c.json({ ok: true, slug: record.slug });
    },
  );
}

function unlockFormErrorPage(fields: Record<string, string>, error: string, status: number) {
  const slug = fields.slug?.trim() ?? "";
  return renderPage(<UnlockPage slug={slug} error={error} />, status, {
    "Cache-Control": "no-store",
  });
}
