/**
 * What `GET|HEAD|POST /<slug>` takes and answers, for the API document.
 * @module
 */
import { z } from "zod";
import { SLUG_LIKE_PATTERN } from "../../lib/links/mod.ts";
import { StoreUnavailableError } from "../../lib/errors.ts";
import { errorResponseSpec, type RouteSpec } from "../_openapi/mod.ts";

const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string(), example: '<!DOCTYPE html><html lang="en">…' } },
});
// A page for a browser, `{error}` JSON for a client whose `Accept` does not name HTML.
const pageOrError = (description: string, sentence: string) => ({
  description,
  content: { ...page(description).content, ...errorResponseSpec(description, sentence).content },
});

// The headers of an answer that sends the visitor on: its destination, the referrer kept.
const onwardHeaders = (cacheControl: string) => ({
  Location: { description: "The destination", example: "https://example.com/a/long/path" },
  "Referrer-Policy": {
    description: "`unsafe-url`: the referrer travels on",
    example: "unsafe-url",
  },
  "Cache-Control": { description: cacheControl, example: "no-store" },
});
// A link whose destination host the operator blocked.
const blocked = () =>
  page(
    "The link's destination host is blocked by the operator (`BLOCKED_HOSTS_FILE`): a page " +
      "saying the operator disabled it, without the destination",
  );

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Redirect",
    summary: "Follow a short link",
    description: "Redirects to the destination. A protected link needs its unlock cookie; " +
      "without it the answer is 401 with the unlock page, for every client (the contract). " +
      "An expired or unknown slug gets the 404 page, which says where an expired link pointed " +
      "(a protected or limited one: only why it is not shown) or that the name is free. HEAD " +
      "answers the same status and headers without a body, and records no click; a protected " +
      "link's HEAD is the 401, cookie or not, so it never shows the destination. A link made " +
      "with `maxVisits` never redirects on a GET, whoever asks: it answers 200 with its Open " +
      "page, saying how many more times it opens and until when, and an Open button, a plain " +
      "form posting to `/<slug>` (see `POST /{slug}`). The page takes nothing and records no " +
      "click, so scanners, previews and prefetchers that only read it use no visit. A used-up " +
      "link gets the 404 page saying it was used up. A link whose destination host the operator " +
      "blocked answers 410 with a page saying so, within 10 s of the block on every instance. " +
      "`/<slug>/`, with a slash after it, answers " +
      "301 to `/<slug>`. Not rate limited.",
    path: z.object({ slug: z.string().regex(SLUG_LIKE_PATTERN).describe("The link's slug") }),
    parameterExample: { slug: "hello" },
    responses: {
      302: {
        description: "On to the destination",
        headers: onwardHeaders("`no-store`: no cache absorbs a visit"),
      },
      200: page(
        "A link made with `maxVisits` (unlocked, when protected): its Open page, without the " +
          "destination; `Cache-Control: no-store`",
      ),
      401: page(
        "A protected link without its unlock cookie, or any protected link's HEAD: the unlock page",
      ),
      404: page(
        "No live link has the slug: the 404 page, which says so when the link was used up",
      ),
      410: blocked(),
      503: pageOrError(
        "The store did not answer: an error page, or JSON to a client that does not ask for HTML",
        new StoreUnavailableError(null).message,
      ),
    },
    store: false,
    readsUnlockCookie: true,
  },
  post: {
    tag: "Redirect",
    summary: "Open a short link (the Open button)",
    description: "Opens the link by a deliberate act: the Open button of a limited link's page " +
      "posts here, and so may a client (`curl -X POST -i BASE/<slug>` shows `Location`). The " +
      "body, if any, is ignored. A link made with `maxVisits` takes one visit in a commit that " +
      "checks the count (exact across instances) and answers 303 to the destination; the last " +
      "visit retires the link in the same commit, after which this answers the 404 page " +
      "saying it was used up and `GET /api/unshorten` 410 with `usedUp`. A link without a " +
      "limit opens as its GET does, with 303 in place of 302. Either way the open is a click " +
      "in the figures, as a GET's is (a bot's counts under device `bot` alone, though on a " +
      "limited link it takes a visit). A protected link without its unlock cookie answers 401 " +
      "with the unlock page and takes nothing. Sent by a page of another origin (the " +
      "cross-site rule: `Sec-Fetch-Site` `cross-site` or `same-site`, or else an `Origin` " +
      "naming neither the request's host nor `BASE_URL`), it is refused with 403 and takes " +
      "nothing, so no other site can use a link up; a request with neither header (curl, a " +
      "server) is a deliberate act. Not rate limited.",
    path: z.object({ slug: z.string().regex(SLUG_LIKE_PATTERN).describe("The link's slug") }),
    parameterExample: { slug: "hello" },
    responses: {
      303: {
        description: "Opened: on to the destination",
        headers: onwardHeaders("`no-store`: no cache keeps the answer"),
      },
      401: page("A protected link without its unlock cookie: the unlock page; nothing taken"),
      404: page(
        "No live link has the slug: the 404 page, which says so when the link was used up",
      ),
      410: blocked(),
      503: pageOrError(
        "The store did not answer, or too many people opened a limited link at once " +
          "(`Retry-After`): an error page, or JSON to a client that does not ask for HTML",
        new StoreUnavailableError(null).message,
      ),
    },
    store: false,
    readsUnlockCookie: true,
  },
};
