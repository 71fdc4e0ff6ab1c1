/**
 * The OpenAPI description of `POST /api/create`, beside its handler.
 * @module
 */
import { createLinkInput } from "../../lib/links/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { ReservedSlugError, SlugTakenError } from "../../lib/errors.ts";
import { errorResponseSpec, jsonResponseSpec, type RouteSpec } from "../_openapi/mod.ts";
import { EXAMPLE_LINK } from "../_lib/examples.ts";
import { linkView } from "../../lib/links/mod.ts";
/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  post: {
    tag: "Links",
    summary: "Make a link",
    description: "Makes a link that lives seven days. A `url` without `scheme://` gets " +
      "`https://`; only http(s) URLs with a real host, not this service's, are taken. Without " +
      "`slug`, seven random base62 characters are drawn. With `pass`, the link is protected: " +
      "its redirect needs the unlock cookie, and its destination is withheld elsewhere. With " +
      "`maxVisits`, the link opens at most that many times, each by `POST /<slug>` (its Open " +
      "button; no GET takes a visit), its destination is withheld everywhere (`url: null`), " +
      "and its last visit retires it; a form sends it as digits. Empty " +
      "or `null` optional fields count as absent; unknown fields are ignored. A body sent as a " +
      "form that parses as a JSON object is read as JSON (`curl -d '{...}'`). A browser's " +
      "form post (a form body and `Accept: text/html`) that succeeds answers 303 to `/?made=<slug>`, the start page with the " +
      "link's card for the browser that made it (a cookie, `lapse_made`, says so for an hour); " +
      "one that is refused gets the start page again, with the reason, under the " +
      "status below.",
    body: {
      schema: createLinkInput,
      example: {
        url: "example.com/a/long/path",
        slug: "hello",
        title: "A long path",
        maxVisits: 5,
      },
      form: true,
    },
    responses: {
      201: jsonResponseSpec("The new link", {
        schema: linkView,
        example: EXAMPLE_LINK,
        headers: { Location: { description: "The short URL", example: EXAMPLE_LINK.shortUrl } },
      }),
      303: {
        description: "Made by a browser's plain HTML form: on to the start page with the new " +
          "link's card",
        headers: {
          Location: { description: "The card's page", example: `/?made=${EXAMPLE_LINK.slug}` },
          "Set-Cookie": { description: "`lapse_made`: this browser made the link, for an hour" },
        },
      },
      400: errorResponseSpec(
        "Bad JSON, a missing or invalid field, or a reserved slug",
        new ReservedSlugError("docs").message,
      ),
      409: errorResponseSpec(
        "The custom slug is held by a live link",
        new SlugTakenError("hello").message,
      ),
    },
    rateLimit: RATE_LIMITS.create,
  },
};
