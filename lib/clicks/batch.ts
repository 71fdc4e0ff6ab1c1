/**
 * Visits waiting for their clicks to be written, in batches of one UTC day: each link's visits
 * classified as they are recorded, and taken by a flush a link at a time.
 * @module
 */
import { TimeSlices } from "../pause.ts";
import { DAY_MS, dayOf } from "../tallies/kinds.ts";
import type { VisitClassifier } from "./classify.ts";
import { type LinkVisits, VISIT_STRIDE, visitsOf } from "./visits.ts";

/** The link a visit went to. */
export interface VisitedLink {
  slug: string;
  id: string;
  title: string;
}

/**
 * The default bound on visits waiting for their clicks to be written: 64 MiB. A visit is
 * classified as it is recorded and kept as three names (see `VisitList`), counted as 24 bytes;
 * while the country lookup is not yet loaded, its client address as well, counted as 48 bytes
 * plus two a character. A link waiting is counted as 400 bytes. Some 2.5 million visits.
 */
export const MAX_PENDING_BYTES = 64 * 1024 * 1024;

// What a visit, an address kept for its country and a link waiting take, generous estimates.
const VISIT_BYTES = 24;
const ADDRESS_BYTES = 48;
const LINK_BYTES = 400;
// A link's visits waiting, classified as they were recorded. It is itself the `LinkVisits` a
// flush writes: once taken, no visit is added to it.
export interface PendingLink extends LinkVisits {
  /**
   * The client address of each visit whose country slot is {@linkcode UNRESOLVED}, in order:
   * visits recorded before the country lookup was loaded.
   */
  unresolved: string[] | null;
  /** When its first visit in the batch was recorded (epoch ms). */
  firstAt: number;
  /** Taken by a flush to be written: visits after that wait for the next batch. */
  taken: boolean;
  /** Bytes its visits take (see {@linkcode MAX_PENDING_BYTES}). */
  bytes: number;
}

// The country of a visit whose address waits for the country lookup.
const UNRESOLVED = "?";

/** One day's visits waiting, by link. */
export interface Batch {
  day: string;
  dayEnd: number;
  links: Map<string, PendingLink>;
  /** Visits. */
  size: number;
  /** Bytes its links' counts take. */
  bytes: number;
}

/** A new batch for the day of `now`. */
export function newBatch(now: number): Batch {
  const dayStart = now - (now % DAY_MS);
  return { day: dayOf(now), dayEnd: dayStart + DAY_MS, links: new Map(), size: 0, bytes: 0 };
}

/** `link`'s visits waiting in `batch`, made empty at `now` when it has none yet. */
export function pendingIn(batch: Batch, link: VisitedLink, now: number): PendingLink {
  let pending = batch.links.get(link.id);
  if (pending === undefined) {
    pending = {
      slug: link.slug,
      id: link.id,
      title: link.title,
      clicks: 0,
      bots: 0,
      lastUsedAt: 0,
      day: batch.day,
      visits: [],
      unresolved: null,
      firstAt: now,
      taken: false,
      bytes: LINK_BYTES,
    };
    batch.links.set(link.id, pending);
    batch.bytes += LINK_BYTES;
  }
  return pending;
}

/** Takes the link `id`, whose clicks are written, out of `batch`. */
export function written(batch: Batch, id: string): void {
  const pending = batch.links.get(id);
  if (pending === undefined) return;
  batch.size -= visitsOf(pending);
  batch.bytes -= pending.bytes;
  batch.links.delete(id);
}

/** When the oldest visit waiting in `batches` was recorded (epoch ms); Infinity when none waits. */
export function oldestVisitAt(batches: Batch[]): number {
  let oldest = Infinity;
  for (const batch of batches) {
    for (const link of batch.links.values()) oldest = Math.min(oldest, link.firstAt);
  }
  return oldest;
}

/**
 * Moves the visits of each link of `batches` counted by client address (recorded before the
 * country lookup was loaded) to their countries, a few ms at a time between turns of the loop.
 */
export async function resolveCountries(
  batches: Batch[],
  classifier: VisitClassifier,
): Promise<void> {
  const slices = new TimeSlices();
  for (const batch of batches) {
    for (const link of batch.links.values()) {
      const addresses = link.unresolved;
      if (addresses === null) continue;
      const visits = link.visits;
      let next = 0;
      for (let i = 2; i < visits.length; i += VISIT_STRIDE) {
        if (visits[i] !== UNRESOLVED) continue;
        const address = addresses[next++]!;
        visits[i] = classifier.addressCountry(address) ?? "unknown";
        const bytes = -addressBytes(address);
        link.bytes += bytes;
        batch.bytes += bytes;
        if (slices.over) await slices.yield();
      }
      link.unresolved = null;
    }
  }
}

/**
 * Each link of `batch` as it is taken, so a flush does that work a chunk at a time between its
 * commits, in the order of their first visits: a journal's lines need no order. Links leave the
 * batch as their chunks commit, while this runs.
 */
export function* summaries(batch: Batch): Generator<LinkVisits> {
  // A link leaving the map while this runs is not visited again; none joins it (visits go to
  // the next batch once this one is written).
  for (const link of batch.links.values()) {
    link.taken = true; // its visits from now on wait for the next batch
    yield link;
  }
}

/** Classifies a visit and keeps it in `pending`, a link of `batch`. */
export function addVisit(
  batch: Batch,
  pending: PendingLink,
  classifier: VisitClassifier,
  userAgent: string,
  referer: string,
  client: string,
  country: string,
  now: number,
): void {
  const device = classifier.device(userAgent);
  let bytes = VISIT_BYTES;
  if (device === "bot") {
    pending.bots++;
    pending.visits.push(device, "", "");
  } else {
    pending.clicks++;
    if (now > pending.lastUsedAt) pending.lastUsedAt = now;
    const found = classifier.country(country, client);
    pending.visits.push(device, classifier.referrer(referer), found ?? UNRESOLVED);
    if (found === null) {
      (pending.unresolved ??= []).push(client);
      bytes += addressBytes(client);
    }
  }
  pending.bytes += bytes;
  batch.bytes += bytes;
  batch.size++;
}

/** What keeping `address` for its country takes (see {@linkcode MAX_PENDING_BYTES}). */
function addressBytes(address: string): number {
  return ADDRESS_BYTES + address.length * 2;
}
