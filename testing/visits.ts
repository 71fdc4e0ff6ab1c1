/**
 * Visitors for click tests.
 * @module
 */
import type { ClickBuffer, VisitedLink, VisitFacts } from "../lib/clicks/mod.ts";

/** A desktop browser. */
export const DESKTOP_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
/** A phone browser. */
export const MOBILE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
/** A link-preview crawler. */
export const BOT_UA = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";

/** A visit from a desktop in Great Britain, with no referrer unless given. */
export function visit(overrides: Partial<VisitFacts> = {}): VisitFacts {
  return { userAgent: DESKTOP_UA, referer: "", client: "81.2.69.160", country: "", ...overrides };
}

/** Records the visit `facts` to `link` in `buffer`, as the redirect does. */
export function record(
  buffer: ClickBuffer,
  link: VisitedLink,
  facts: VisitFacts = visit(),
): void {
  buffer.recordVisit(link, facts.userAgent, facts.referer, facts.client, facts.country);
}
