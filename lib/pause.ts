/**
 * Waiting, and long work done in slices so that requests are not held behind it.
 * @module
 */

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The longest a slice of long work holds the event loop before it lets what waits run, in ms. */
export const SLICE_MS = 4;

/**
 * Times long work in slices: once a slice has had its {@linkcode SLICE_MS}, the work lets the
 * event loop run what waits (requests, timers), then starts the next.
 */
export class TimeSlices {
  #start = performance.now();

  /** Whether the current slice has had its time. */
  get over(): boolean {
    return performance.now() - this.#start >= SLICE_MS;
  }

  /** Lets the event loop run what waits, then starts the next slice. */
  async yield(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 0));
    this.restart();
  }

  /** Starts a new slice now, as after other work that let the loop run. */
  restart(): void {
    this.#start = performance.now();
  }
}
