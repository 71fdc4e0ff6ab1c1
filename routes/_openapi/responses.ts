/**
 * Responses several operations share, built once so that each spec states only its own.
 * @module
 */
import { z } from "zod";
import { blockedErrorBody, expiredErrorBody, usedUpErrorBody } from "../../lib/error_bodies.ts";
import { LinkExpiredError, LinkNotFoundError } from "../../lib/errors.ts";
import { errorResponseSpec, jsonResponseSpec, type ResponseSpec } from "./catalogue.ts";

const EXPIRED_AT = "2026-11-09T12:00:00.000Z";

/** 404 for a slug no link has, as `description` says which ("live", "ever"). */
export function linkNotFound(description: string, slug = "hello"): ResponseSpec {
  return errorResponseSpec(description, new LinkNotFoundError(slug).message);
}

/** 404 for a slug no link ever had. */
export const NEVER_A_LINK = linkNotFound("No link ever had the slug");

/** 404 for a slug no live link has. */
export const NO_LIVE_LINK = linkNotFound("No live link has the slug");

/**
 * 410 for a link whose time is up; with `usedUp`, or whose last visit used it up; with
 * `blocked`, or whose destination host the operator blocked.
 */
export function linkGone(options: { usedUp?: boolean; blocked?: boolean } = {}): ResponseSpec {
  const bodies = [
    expiredErrorBody,
    ...(options.usedUp ? [usedUpErrorBody] : []),
    ...(options.blocked ? [blockedErrorBody] : []),
  ];
  const why = [
    "its time is up",
    ...(options.usedUp ? ["its last visit used it up"] : []),
    ...(options.blocked ? ["the operator blocked its destination host"] : []),
  ];
  const last = why.length > 1 ? `, or ${why.pop()}` : "";
  return jsonResponseSpec(
    `The link existed and ${why.join(", ")}${last}`,
    {
      schema: bodies.length === 1
        ? expiredErrorBody
        : z.union(bodies as [typeof expiredErrorBody, ...z.ZodObject[]]),
      example: {
        error: new LinkExpiredError("hello", Date.parse(EXPIRED_AT)).message,
        slug: "hello",
        expired: true,
        expiresAt: EXPIRED_AT,
      } satisfies z.input<typeof expiredErrorBody>,
    },
  );
}
