/**
 * The bodies of error answers, as zod schemas: every error is `{error}`, and two kinds add
 * fields. The OpenAPI document is made from these.
 * @module
 */
import { z } from "zod";

/** Every error: one sentence for a person. */
export const errorBody = z.object({
  error: z.string().describe("What went wrong, as a sentence for a person"),
});

/** Every error's body. */
export type ErrorBody = z.infer<typeof errorBody>;

/** `410` from unshorten: the link existed and its time is up. */
export const expiredErrorBody = errorBody.extend({
  slug: z.string().describe("The slug asked about"),
  expired: z.literal(true),
  expiresAt: z.iso.datetime().describe("When it expired, ISO 8601 UTC"),
});

/** `410` from unshorten: the link's last visit used it up. */
export const usedUpErrorBody = errorBody.extend({
  slug: z.string().describe("The slug asked about"),
  usedUp: z.literal(true),
});

/** `410` from unshorten: the operator blocked the link's destination host. */
export const blockedErrorBody = errorBody.extend({
  slug: z.string().describe("The slug asked about"),
  blocked: z.literal(true),
});

/** A refused preview: why, in a word. */
export const previewRefusalBody = errorBody.extend({
  reason: z.enum(["host", "private", "port"]).describe(
    "`host`: not a public host name; `private`: an address outside public unicast space; " +
      "`port`: a port other than 80 and 443",
  ),
});
