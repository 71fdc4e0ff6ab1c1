/**
 * What `GET|HEAD /<slug>` takes and answers, for the API document.
 * @module
 */
import { z } from "zod";
import { SLUG_LIKE_PATTERN } from "../../lib/links/mod.ts";
import { StoreUnavailableError } from "../../lib/errors.ts";
import { errorResponse, type RouteSpec } from "../_openapi/mod.ts";

const page = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string(), example: '<!DOCTYPE html><html lang="en">…' } },
});
// A page for a browser, `{error}` JSON for a client whose `Accept` does not name HTML.
const pageOrError = (description: string, sentence: string) => ({
  description,
  content: { ...page(description).content, ...errorResponse(description, sentence).content },
});

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  get: {
    tag: "Redirect",
    summary: "Follow a short link",
    description: "Redirects to the destination. A protected link needs its unlock cookie; " +
      "without it the answer is 401 with the unlock page, for every client (the contract). " +
      "An expired or unknown slug gets the 404 page, which says where an expired link pointed (a protected one: only that it " +
      "was protected) or that the name is free. HEAD answers the same status and headers " +
      "without a body, and records no click; a protected link's HEAD is the 401, cookie or " +
      "not, so it never shows the destination. A link made with `maxVisits` opens for that " +
      "many people: a person's GET takes a visit in the store before the 302, and the last " +
      "one retires the link, whose next visitor gets the 404 page saying it was used up. A " +
      "bot or link-preview crawler (as the click figures tell them), and any HEAD, gets 200 " +
      "with a page saying the link opens for people, no `Location` and no destination, and " +
      "takes nothing. A link whose destination host the operator blocked answers 410 with a " +
      "page saying so, within 10 s of the block on every instance. `/<slug>/`, with a slash " +
      "after it, answers 301 " +
      "to `/<slug>`. Not rate limited.",
    path: z.object({ slug: z.string().regex(SLUG_LIKE_PATTERN).describe("The link's slug") }),
    parameterExample: { slug: "hello" },
    responses: {
      302: {
        description: "On to the destination",
        headers: {
          Location: { description: "The destination", example: "https://example.com/a/long/path" },
          "Referrer-Policy": {
            description: "`unsafe-url`: the referrer travels on",
            example: "unsafe-url",
          },
          "Cache-Control": {
            description: "`no-store`: no cache absorbs a visit",
            example: "no-store",
          },
        },
      },
      200: page(
        "A link made with `maxVisits`, to a bot or link-preview crawler, or its HEAD: a page " +
          "saying it opens for people, without the destination",
      ),
      401: page(
        "A protected link without its unlock cookie, or any protected link's HEAD: the unlock page",
      ),
      404: page(
        "No live link has the slug: the 404 page, which says so when the link was used up",
      ),
      410: page(
        "The link's destination host is blocked by the operator (`BLOCKED_HOSTS_FILE`): a page " +
          "saying the operator disabled it, without the destination",
      ),
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
