/**
 * Wording shared by the pages and the islands.
 * @module
 */

/**
 * The field a refusal's sentence is about, of `fields`: the service's sentences begin with the
 * field's name (`url must use http or https`, `slug "x" is already taken`). `null` for any other.
 */
export function fieldNamed(sentence: string, fields: readonly string[]): string | null {
  const first = /^[a-z][a-zA-Z]*/.exec(sentence)?.[0];
  return first !== undefined && fields.includes(first) ? first : null;
}

/** An ISO time as `YYYY-MM-DD HH:MM UTC`. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * Days left as words, from `days` (a view's `expiresInDays`, rounded up): `7 days left`, and in the
 * last day `under a day left`, not "1 day left" an hour before the end.
 */
export function daysLeft(days: number): string {
  return days === 1 ? "under a day left" : `${days} days left`;
}

/** A count with its thousands marked: `1,234`. */
export function formatCount(count: number): string {
  return count.toLocaleString("en");
}

/** A count with its noun: `1 click`, `1,234 clicks`. */
export function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? "" : "s"}`;
}

/** Visits left of a limited link as words: `3 of 5 visits left`. */
export function visitsLeftText(left: number, max: number): string {
  return `${formatCount(left)} of ${plural(max, "visit")} left`;
}

/** How many times a limited link opens, as words: `once`, `twice`, `3 times`. */
export function opensText(times: number): string {
  return times === 1 ? "once" : times === 2 ? "twice" : `${formatCount(times)} times`;
}

// The pages' labels of the fields the API's sentences begin with (`url must use http or https`),
// where the label is not the name with a capital letter (`title`, `note`).
const FIELD_LABELS: Record<string, string> = {
  url: "destination",
  slug: "custom name",
  pass: "password",
  maxVisits: "the limit of visits",
};

/**
 * A refusal of the API as a page shows it: beginning with the label of the field it names,
 * rather than the field's name, and with a capital letter (`Custom name "x" is already taken`).
 */
export function shownError(sentence: string): string {
  const field = fieldNamed(sentence, Object.keys(FIELD_LABELS));
  const shown = field === null ? sentence : FIELD_LABELS[field] + sentence.slice(field.length);
  return shown.charAt(0).toUpperCase() + shown.slice(1);
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The time from `now` until `expiresAt` in its two largest units, rounded down: `6 days 23
 * hours`, `5 hours 12 minutes`, `4 minutes`; `under a minute` at the end, `no time` after it.
 */
export function timeLeft(expiresAt: string, now: number): string {
  const left = Date.parse(expiresAt) - now;
  if (!(left > 0)) return "no time";
  if (left < MINUTE_MS) return "under a minute";
  const days = Math.floor(left / DAY_MS);
  const hours = Math.floor((left % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((left % HOUR_MS) / MINUTE_MS);
  const unit = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
  if (days > 0) {
    return hours > 0 ? `${unit(days, "day")} ${unit(hours, "hour")}` : unit(days, "day");
  }
  if (hours > 0) {
    return minutes > 0 ? `${unit(hours, "hour")} ${unit(minutes, "minute")}` : unit(hours, "hour");
  }
  return unit(minutes, "minute");
}

/** The path of a link's own page, with its figures: `/links/<slug>`. */
export function linkPagePath(slug: string): string {
  return `/links/${encodeURIComponent(slug)}`;
}
