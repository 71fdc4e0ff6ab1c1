/**
 * `GET /about`: what the service is and what it counts.
 * @module
 */
import { Hono } from "hono";
import { AboutPage } from "../components/AboutPage.tsx";
import type { AppEnv } from "./_lib/env.ts";
import { renderPage } from "./_lib/html.ts";

/** The route. */
export function makeRoute(): Hono<AppEnv> {
  return new Hono<AppEnv>().get("/", () => renderPage(<AboutPage />));
}
