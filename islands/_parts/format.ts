/**
 * Wording shared by the pages and the islands.
 * @module
 */

/** An ISO time as `YYYY-MM-DD HH:MM UTC`. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Days left as words: `7 days left`, `1 day left`. */
export function daysLeft(days: number): string {
  return days === 1 ? "1 day left" : `${days} days left`;
}

/** A count with its noun: `1 click`, `3 clicks`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
