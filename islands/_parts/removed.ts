/**
 * Links deleted from this page, shared through a signal: the delete islands add to it, the
 * filter counts them out of its figures.
 * @module
 */
import { signal } from "@preact/signals";

/** How many links the delete islands of this page have removed. */
export const removedCount = signal(0);
