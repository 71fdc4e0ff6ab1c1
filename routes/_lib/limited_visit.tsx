/**
 * The redirect of a link that opens a limited number of times: a person's GET takes a visit in
 * the store before it is sent on; a bot, a link-preview crawler or any HEAD gets a page that
 * says the link opens for people, and takes nothing.
 * @module
 */
import type { Context } from "hono";
import { OpensForPeoplePage } from "../../components/OpensForPeoplePage.tsx";
import { deviceOf } from "../../lib/clicks/mod.ts";
import { type DatedLinkRecord, takeVisit } from "../../lib/links/mod.ts";
import { notFound } from "../_404.tsx";
import type { AppDeps } from "./env.ts";
import { renderPage } from "./html.ts";

/** What the redirect does once a visit is the visitor's. */
export interface VisitHandlers {
  /** Records the visit for the click figures (a bot's too: it counts under device `bot`). */
  recordVisit: () => void;
  /** The redirect to the destination. */
  redirect: () => Response;
}

/**
 * Answers a GET or HEAD of the limited link `record`, already unlocked when protected. Bots are
 * told apart as the click figures tell them (`deviceOf`), so a visit the figures count as a
 * person's is the one that takes a visit. A person's GET after the last visit gets the 404 page,
 * which says the link was used up.
 */
export async function visitLimitedLink(
  c: Context,
  deps: AppDeps,
  record: DatedLinkRecord,
  handlers: VisitHandlers,
): Promise<Response> {
  const head = c.req.method === "HEAD";
  if (head || deviceOf(c.req.header("user-agent") ?? "") === "bot") {
    if (!head) handlers.recordVisit();
    return renderPage(<OpensForPeoplePage slug={record.slug} />, 200, {
      "Cache-Control": "no-store",
    });
  }
  const visit = await takeVisit(deps.store, record);
  if (!visit.taken) return notFound(c, deps);
  handlers.recordVisit();
  return handlers.redirect();
}
