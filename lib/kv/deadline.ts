/**
 * Bounding the time a store operation may take, so a hung store still gets an answer.
 * @module
 */

/** What {@linkcode beforeDeadline} gives when the time ran out first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * Settles as `work` does, or with {@linkcode TIMED_OUT} once `ms` have passed, whichever comes
 * first. The timer is cleared either way; `work` itself goes on, unobserved.
 */
export async function beforeDeadline<T>(
  work: Promise<T>,
  ms: number,
): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
