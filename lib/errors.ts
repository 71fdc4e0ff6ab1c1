/**
 * The domain's errors. Each carries a sentence for a person and no HTTP status;
 * the edge maps them to responses in one place.
 * @module
 */

/** Base of every error the domain throws on purpose. */
export class DomainError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A field is missing, of the wrong type, or out of its bounds. */
export class InvalidInputError extends DomainError {
  /** The input field it is about (`url`, `slug`...), when it is about one. */
  readonly field: string | undefined;

  /** Builds the error with its sentence and, when known, the field it is about. */
  constructor(message: string, options?: ErrorOptions & { field?: string }) {
    super(message, options);
    this.field = options?.field;
  }
}

/** A custom slug is already used by a live link. */
export class SlugTakenError extends DomainError {
  constructor(readonly slug: string) {
    super(`slug "${slug}" is already taken`);
  }
}

/** A custom slug is a reserved word. */
export class ReservedSlugError extends DomainError {
  constructor(readonly slug: string) {
    super(`slug "${slug}" is reserved`);
  }
}

/** No live link has this slug, and none ever had as far as the store knows. */
export class LinkNotFoundError extends DomainError {
  constructor(readonly slug: string) {
    super(`no link with slug "${slug}"`);
  }
}

/** The link existed but its seven days are over. */
export class LinkExpiredError extends DomainError {
  /** Builds the error for `slug`, which expired at `expiresAt` (epoch ms). */
  constructor(readonly slug: string, readonly expiresAt: number) {
    super(`link "${slug}" expired`);
  }
}

/** The password given for a protected link is wrong. */
export class WrongPasswordError extends DomainError {
  /** Builds the error; its sentence is fixed by the interface. */
  constructor() {
    super("wrong password");
  }
}

/** An unlock was asked for a link that has no password. */
export class NotProtectedError extends DomainError {
  constructor(readonly slug: string) {
    super(`link "${slug}" is not protected`);
  }
}

/** The input field `error` is about, or `null` when it names none. */
export function fieldOf(error: DomainError): string | null {
  if (error instanceof SlugTakenError || error instanceof ReservedSlugError) return "slug";
  if (error instanceof InvalidInputError) return error.field ?? null;
  return null;
}

/** Too many requests of one kind from one client in the current window. */
export class RateLimitedError extends DomainError {
  /** Builds the error for `limit` requests per `windowMs`, open again in `retryAfterSeconds`. */
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    readonly retryAfterSeconds: number,
  ) {
    const minutes = Math.round(windowMs / 60_000);
    const window = minutes === 1 ? "minute" : `${minutes} minutes`;
    super(`rate limit of ${limit} requests per ${window} reached, retry in ${retryAfterSeconds} s`);
  }
}

/** Too many wrong passwords on one link, from this client or from everyone, in the window. */
export class TooManyGuessesError extends RateLimitedError {
  /** Builds the error for a window of `windowMs`, open again in `retryAfterSeconds`. */
  constructor(limit: number, windowMs: number, retryAfterSeconds: number) {
    super(limit, windowMs, retryAfterSeconds);
    const minutes = Math.round(windowMs / 60_000);
    this.message =
      `too many wrong passwords on this link (at most ${limit} per ${minutes}-minute ` +
      `window); retry in ${retryAfterSeconds} s`;
  }
}

/**
 * The service has more of some work under way than it takes at once (password hashing, or one
 * count that many writers contend for); the request may be sent again in `retryAfterSeconds`.
 */
export class BusyError extends DomainError {
  /** Builds the error saying what is busy, e.g. `password hashing`. */
  constructor(what: string, readonly retryAfterSeconds = 1) {
    super(`${what} is busy, retry in ${retryAfterSeconds} s`);
  }
}

/** Why a preview was refused: a name that is not public, an inner address, or an odd port. */
export type PreviewRefusal = "host" | "private" | "port";

/** A preview was refused because its address, or one of its redirects, points inward. */
export class PreviewRefusedError extends DomainError {
  /** Builds the error for `reason`, with a sentence saying what was refused. */
  constructor(readonly reason: PreviewRefusal, message: string) {
    super(message);
  }
}

/** The link was used up by its last visit: it opened as many times as it was made to. */
export class LinkUsedUpError extends DomainError {
  constructor(readonly slug: string) {
    super(`link "${slug}" was used up: it opened as many times as it was made to`);
  }
}

/** The link's destination is on a host the service's operator blocked (`BLOCKED_HOSTS_FILE`). */
export class LinkBlockedError extends DomainError {
  constructor(readonly slug: string) {
    super(
      `link "${slug}" was disabled by the operator of this service: its destination host is blocked`,
    );
  }
}

/** The store did not answer, or answered with a failure. */
export class StoreUnavailableError extends DomainError {
  /** Wraps the store's own error as `cause`. */
  constructor(cause: unknown) {
    super("storage is unavailable, try again shortly", { cause });
  }
}
