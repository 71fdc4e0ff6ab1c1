/**
 * `GET /changelog`: every release, newest first, as a page.
 * @module
 */
import { Hono } from "hono";
import { ChangelogPage } from "../components/ChangelogPage.tsx";
import { RELEASES } from "../lib/version/changelog.ts";
import type { AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";

/** The route. */
export function makeRoute(): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", () => renderPage(<ChangelogPage releases={RELEASES} />));
}
