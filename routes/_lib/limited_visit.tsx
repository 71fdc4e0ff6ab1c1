/**
 * A link that opens a limited number of times: `GET /<slug>` answers its Open page and takes
 * nothing; `POST /<slug>`, the Open button, takes one visit in the store and sends the person
 * on. See docs/decisions/2026-12-01-limited-links-open-by-a-post.md.
 * @module
 */
import type { Context } from "hono";
import { OpenPage } from "../../components/OpenPage.tsx";
import { type DatedLinkRecord, readVisitsLeft, takeVisit } from "../../lib/links/mod.ts";
import { notFound } from "../_404.tsx";
import type { AppDeps, AppEnv } from "./env.ts";
import { isFormPost, readFormTexts } from "./body.ts";
import { ONWARD_FORM_CONTENT_SECURITY_POLICY, renderPage } from "./html.ts";
import { REDIRECT_HEADERS } from "./redirect.ts";

/**
 * The Open page of the limited link `record`, already unlocked when protected: how many more
 * times it opens, until when, and the Open button. Never cached, and its form may end on the
 * destination (the policy of the unlock page).
 */
export async function openPage(c: Context<AppEnv>, deps: AppDeps, record: DatedLinkRecord) {
  const [left] = await readVisitsLeft(deps.store, [record]);
  // Only a record written by hand has a limit and no visit left.
  if (!left) return notFound(c, deps);
  const now = deps.store.now();
  const page = (
    <OpenPage
      slug={record.slug}
      title={record.title}
      visitsLeft={left}
      expiresAt={new Date(record.expiresAt).toISOString()}
      now={now}
      from={(c.req.header("referer") ?? "").slice(0, MAX_REFERER)}
    />
  );
  return renderPage(page, 200, {
    "Cache-Control": "no-store",
    "Content-Security-Policy": ONWARD_FORM_CONTENT_SECURITY_POLICY,
  });
}

/**
 * Opens the limited link `record`, already unlocked when protected: takes one visit in a checked
 * commit (the last retires the link), records it for the click figures with `recordVisit`, and
 * answers 303 to the destination. A link used up or gone meanwhile gets the 404 page, which says
 * when it was used up.
 */
export async function openLimitedLink(
  c: Context<AppEnv>,
  deps: AppDeps,
  record: DatedLinkRecord,
  recordVisit: () => void,
): Promise<Response> {
  const visit = await takeVisit(deps.store, record, { cache: deps.linkCache });
  if (!visit.taken) return notFound(c, deps);
  recordVisit();
  return seeDestination(record);
}

/** The 303 to `record`'s destination that answers a POST to the link, as its 302 carries. */
export function seeDestination(record: DatedLinkRecord): Response {
  return new Response(null, {
    status: 303,
    headers: { location: record.url, ...REDIRECT_HEADERS },
  });
}

// The most of a Referer the click figures keep (the buffer's bound).
const MAX_REFERER = 512;

/**
 * The request's headers as the click figures read them. An Open pressed on the link's own page
 * names that page as its Referer; the page carries the referrer of its own GET in the form's
 * `from` field, which stands in for it (empty: none, a direct visit). Any other request's
 * headers are its own.
 */
export async function openerHeaders(c: Context<AppEnv>, deps: AppDeps): Promise<Headers> {
  const headers = c.req.raw.headers;
  if (!isFormPost(c) || !fromOwnPage(headers.get("referer"), c.req.url, deps.config.baseUrl)) {
    return headers;
  }
  let from: string | undefined;
  try {
    from = (await readFormTexts(c)).from?.[0];
  } catch {
    return headers; // an unreadable form changes nothing: the Open goes on
  }
  if (from === undefined) return headers;
  const copy = new Headers(headers);
  if (from === "") copy.delete("referer");
  else copy.set("referer", from.slice(0, MAX_REFERER));
  return copy;
}

/** Whether `referer` is a page of this service, at the request's origin or `BASE_URL`'s. */
function fromOwnPage(referer: string | null, requestUrl: string, baseUrl: string): boolean {
  if (referer === null) return false;
  try {
    const origin = new URL(referer).origin;
    return origin === new URL(requestUrl).origin || origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
