/**
 * A browser's plain form post that fails gets its form's page again, with the reason and what
 * was entered, under the status the API answers; API clients keep their JSON error.
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import { DomainError } from "../../lib/errors.ts";
import type { AppEnv } from "../_lib/env.ts";
import { readFormTexts } from "../_lib/body.ts";
import { isBrowserForm } from "../_lib/negotiate.ts";
import { statusOf } from "./errors.tsx";

/**
 * Renders a form's page for a failed post: its fields as sent, the reason (its sentence, and
 * the field it names, if any), the status.
 */
export type FormErrorPage = (
  fields: Record<string, string>,
  error: DomainError,
  status: number,
) => Response;

/**
 * Replaces the error answer of a browser form post (a domain error: refused input, a taken
 * slug, a rate limit...) by `page`. Put it before the rate limit, so that refusal is caught too.
 */
export function formErrorPage(page: FormErrorPage): MiddlewareHandler<AppEnv> {
  return async function formErrorPage(c, next) {
    await next();
    if (!(c.error instanceof DomainError) || !isBrowserForm(c)) return;
    c.res = page(await formFields(c), c.error, statusOf(c.error));
  };
}

// The form's text fields as sent; a field given more than once (bulk's `urls` as several
// fields) as its values a line each, so the lines come back in one field.
async function formFields(c: Context<AppEnv>): Promise<Record<string, string>> {
  if (c.get("bodyRefused")) return {}; // a refused body is never read
  try {
    const fields = await readFormTexts(c);
    return Object.fromEntries(
      Object.entries(fields).map(([name, texts]) => [name, texts.join("\n")]),
    );
  } catch {
    return {};
  }
}
