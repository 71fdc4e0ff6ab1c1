/**
 * The one place errors become responses: domain errors to their status and `{error}` JSON
 * under `/api/` and for clients that do not ask for HTML, and to an error page for a browser
 * elsewhere.
 * @module
 */
import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import {
  BusyError,
  DomainError,
  InvalidInputError,
  LinkBlockedError,
  LinkExpiredError,
  LinkNotFoundError,
  LinkUsedUpError,
  NotProtectedError,
  PreviewRefusedError,
  RateLimitedError,
  ReservedSlugError,
  SlugTakenError,
  StoreUnavailableError,
  WrongPasswordError,
} from "../../lib/errors.ts";
import { describeError, type Logger, logLine, stdoutLogger } from "../../lib/log/mod.ts";
import { ErrorPage } from "../../components/ErrorPage.tsx";
import type { AppEnv } from "../_lib/env.ts";
import { renderPage } from "../_lib/html.ts";
import { asksForHtml } from "../_lib/negotiate.ts";

type ErrorStatus = 400 | 403 | 404 | 409 | 410 | 413 | 429 | 500 | 503;

/** The HTTP status of a domain error. */
export function statusOf(error: DomainError): ErrorStatus {
  if (error instanceof InvalidInputError) return 400;
  if (error instanceof ReservedSlugError) return 400;
  if (error instanceof NotProtectedError) return 400;
  if (error instanceof PreviewRefusedError) return 400;
  if (error instanceof WrongPasswordError) return 403;
  if (error instanceof LinkNotFoundError) return 404;
  if (error instanceof SlugTakenError) return 409;
  if (error instanceof LinkExpiredError) return 410;
  if (error instanceof LinkUsedUpError) return 410;
  if (error instanceof LinkBlockedError) return 410;
  if (error instanceof RateLimitedError) return 429;
  if (error instanceof StoreUnavailableError) return 503;
  if (error instanceof BusyError) return 503;
  return 400;
}

/** Options of {@linkcode handleErrors}. */
export interface HandleErrorsOptions {
  /** Where unexpected errors and store failures are logged; default stdout. */
  log?: Logger;
}

/**
 * Maps an error to its response: a domain error to its status and sentence, an HTTP exception
 * to itself, anything else to 500 with a generic sentence. Unexpected errors and store failures
 * are logged here, once each, with their request and its id.
 */
export function handleErrors(options: HandleErrorsOptions = {}): ErrorHandler<AppEnv> {
  const log = options.log ?? stdoutLogger();
  return function handleErrors(error, c) {
    if (error instanceof DomainError) return domainErrorResponse(c, error, log);
    if (error instanceof HTTPException) {
      return respond(c, error.status, { error: error.message || "request refused" });
    }
    logFailure(c, { log, msg: "unexpected error", error });
    return respond(c, 500, { error: "internal error, the request was not completed" });
  };
}

/** A failure to log: where to, what it is in a word or two, and the error itself. */
export interface Failure {
  log: Logger;
  msg: string;
  error: unknown;
}

/**
 * Logs a failure of the request in `c` at level `error`, with its method, path and id: for a
 * route that answers a failure itself rather than throwing it to {@linkcode handleErrors}.
 */
export function logFailure(c: Context<AppEnv>, failure: Failure): void {
  failure.log(logLine("error", failure.msg, {
    method: c.req.method,
    path: c.req.path,
    requestId: c.get("requestId"),
    error: describeError(failure.error),
  }));
}

/**
 * The error as JSON on an API path, or to a client that does not ask for HTML; as a page with
 * the same sentence to a browser elsewhere. `headers` go on either.
 */
function respond(
  c: Context,
  status: number,
  body: { error: string },
  headers: Record<string, string> = {},
): Response {
  if (c.req.path.startsWith("/api/")) return c.json(body, status as ErrorStatus, headers);
  // The same path answers a browser and any other client differently.
  const negotiated = { "Cache-Control": "no-store", "Vary": "Accept", ...headers };
  if (!asksForHtml(c)) return c.json(body, status as ErrorStatus, negotiated);
  return renderPage(<ErrorPage status={status} message={body.error} />, status, negotiated);
}

function domainErrorResponse(c: Context<AppEnv>, error: DomainError, log: Logger): Response {
  const status = statusOf(error);
  if (error instanceof StoreUnavailableError) {
    logFailure(c, { log, msg: "store unavailable", error: error.cause });
  }
  // A page answers with a response of its own, so the headers travel with the answer.
  const headers: Record<string, string> = error instanceof RateLimitedError
    ? {
      "Retry-After": String(error.retryAfterSeconds),
      "RateLimit-Limit": String(error.limit),
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": String(error.retryAfterSeconds),
    }
    : error instanceof BusyError
    ? { "Retry-After": String(error.retryAfterSeconds) }
    : {};
  if (error instanceof LinkBlockedError && c.req.path.startsWith("/api/")) {
    return c.json({ error: error.message, slug: error.slug, blocked: true }, status);
  }
  if (error instanceof LinkUsedUpError && c.req.path.startsWith("/api/")) {
    return c.json({ error: error.message, slug: error.slug, usedUp: true }, status);
  }
  if (error instanceof LinkExpiredError && c.req.path.startsWith("/api/")) {
    return c.json({
      error: error.message,
      slug: error.slug,
      expired: true,
      expiresAt: new Date(error.expiresAt).toISOString(),
    }, status);
  }
  if (error instanceof PreviewRefusedError) {
    return c.json({ error: error.message, reason: error.reason }, status);
  }
  return respond(c, status, { error: error.message }, headers);
}
