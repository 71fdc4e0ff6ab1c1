/**
 * The OpenAPI description of `POST /api/unlock`, beside its handler.
 * @module
 */
import { CROSS_SITE_UNLOCK } from "../_lib/cross_site.ts";
import { NotProtectedError, WrongPasswordError } from "../../lib/errors.ts";
import { linkActionDone } from "../../lib/links/views.ts";
import { unlockInput } from "../../lib/links/input.ts";
import {
  errorResponseSpec,
  jsonResponseSpec,
  linkNotFound,
  type RouteSpec,
} from "../_openapi/mod.ts";
import { RATE_LIMITS } from "../../lib/rate_limit/mod.ts";
import { unlockCookieName } from "../../lib/unlock/mod.ts";

/** What the route takes and answers, for the API document. */
export const spec: RouteSpec = {
  post: {
    tag: "Protected links",
    summary: "Unlock a protected link",
    description: "Checks the password and, when it is right, sets the link's unlock cookie " +
      "(see the `unlockCookie` security scheme): the redirect then proceeds, and the " +
      "destination shows in unshorten, the list and the export. The destination is in " +
      "neither answer. A browser's form post (a form body and `Accept: text/html`) that " +
      "succeeds answers 303 to the link, any other request JSON; a browser's form post that " +
      "fails gets the unlock page again, with the reason, under the status below (without " +
      "the form when the slug is missing or impossible, or the link unknown or open). Besides " +
      "the 10 a minute per client, a client (an IPv4 address, an IPv6 /64) gets 5 wrong " +
      "passwords on a link per 10-minute window; once a link has taken 130 from everyone, 3 " +
      "(also 429; fixed windows, as the rate limits). A client's first three tries are always " +
      "heard, and a right password costs no try.",
    body: { schema: unlockInput, example: { slug: "secret", pass: "correct horse" }, form: true },
    responses: {
      200: jsonResponseSpec("Unlocked: the cookie is set", {
        schema: linkActionDone,
        example: { ok: true, slug: "secret" },
        headers: {
          "Set-Cookie": {
            description: "The unlock cookie of this link",
            example: `${unlockCookieName("secret")}=<token>; Max-Age=604800; Path=/; ` +
              "HttpOnly; SameSite=Lax",
          },
        },
      }),
      303: {
        description: "Unlocked by a browser's form post (`Accept: text/html`): on to the link, " +
          "the cookie set",
        headers: {
          Location: { description: "The link's path", example: "/secret" },
          "Set-Cookie": { description: "The unlock cookie of this link" },
        },
      },
      400: errorResponseSpec(
        "A missing field, or a link that has no password",
        new NotProtectedError("hello").message,
      ),
      403: errorResponseSpec(
        "The password is wrong; or the request came from a page of another site " +
          `(\`Sec-Fetch-Site\` or \`Origin\`), whatever its body: "${CROSS_SITE_UNLOCK}"`,
        new WrongPasswordError().message,
      ),
      404: linkNotFound("No live link has the slug", "secret"),
    },
    rateLimit: RATE_LIMITS.unlock,
  },
};
