/**
 * Making a link: one atomic commit that can never let two requests own one slug.
 * @module
 */
import { monotonicFactory } from "ulid";
import { ReservedSlugError, SlugTakenError } from "../errors.ts";
import { linkKey, linkStatsKey, linkVisitsKey, tallyKey, usedUpLinkKey } from "../kv/keys.ts";
import { EXPIRED_GRACE_MS } from "../kv/store.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import { rerankAfter } from "../tallies/rank.ts";
import { DAY_LINK_TALLY, dayOf, LINK_TALLY } from "../tallies/kinds.ts";
import { newLinkStats } from "../tallies/shares.ts";
import { type DestinationOptions, normalizeDestination } from "./destination.ts";
import type { CreateLinkInput } from "./input.ts";
import { hashPassword } from "../passwords/mod.ts";
import { type DatedLinkRecord, isExpired, type LinkRecord } from "./record.ts";
import { generateSlug, isReservedSlug } from "./slug.ts";
import { addRetirement, type RetireOptions } from "./retire.ts";
import { addLinkWrites } from "./write.ts";

/** Options of {@linkcode createLink}; `cache` forgets an expired holder the link replaces. */
export interface CreateLinkOptions extends RetireOptions {
  /** The service's own host; destinations there are refused. */
  serviceHost: string;
  /** What else a destination is judged by: where the service listens, blocked hosts. */
  destination?: Omit<DestinationOptions, "strictHost">;
  /** A hash of `input.pass` made already (bulk makes one for all its rows). */
  passHash?: string;
  /** Who asks, as rate limits count it: the hashing queue shares its places among clients. */
  client?: string;
}

// Ids made in the same millisecond still sort in creation order.
const nextId = monotonicFactory();

// Generated slugs collide rarely (62^7 names); a few fresh draws settle any collision.
const GENERATED_ATTEMPTS = 8;
// A custom slug is retried only while its previous holder keeps expiring or vanishing.
const CUSTOM_ATTEMPTS = 4;

/**
 * Makes a link from validated input; with `pass`, a protected one (only its hash is kept).
 * A custom slug must not be reserved nor held by a live link; an expired holder is retired in
 * the same commit. Throws `InvalidInputError`, `ReservedSlugError` or `SlugTakenError`.
 */
export async function createLink(
  store: Store,
  input: CreateLinkInput,
  options: CreateLinkOptions,
): Promise<DatedLinkRecord> {
  const url = normalizeDestination(input.url, options.serviceHost, options.destination);
  if (input.slug !== undefined) {
    if (isReservedSlug(input.slug)) throw new ReservedSlugError(input.slug);
    // Refuse a taken name before spending a password hash on it; the commit checks again.
    const holder = await store.kv.get<LinkRecord>(linkKey(input.slug));
    if (holder.value && !isExpired(holder.value, store.now())) {
      throw new SlugTakenError(input.slug);
    }
  }
  const passHash = input.pass === undefined
    ? null
    : options.passHash ?? await hashPassword(input.pass, { client: options.client });
  const attempts = input.slug === undefined ? GENERATED_ATTEMPTS : CUSTOM_ATTEMPTS;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const slug = input.slug ?? generateSlug();
    const now = store.now();
    const existing = await store.kv.get<LinkRecord>(linkKey(slug));
    const previous = existing.value;
    if (previous !== null && !isExpired(previous, now)) {
      if (input.slug !== undefined) throw new SlugTakenError(slug);
      continue;
    }
    const record: DatedLinkRecord = {
      id: nextId(now),
      slug,
      url,
      title: input.title ?? "",
      note: input.note ?? "",
      passHash,
      createdAt: now,
      expiresAt: now + store.ttlMs,
      // Absent without a limit, so such a record is stored exactly as before limits existed.
      ...(input.maxVisits === undefined ? {} : { maxVisits: input.maxVisits }),
    };
    const atomic = store.kv.atomic().check(existing);
    // An expired holder of the slug is retired in the same commit, figures and all.
    const ranked = previous === null
      ? []
      : addRetirement(atomic, previous, await store.kv.get(linkStatsKey(previous.id)));
    addLinkWrites(atomic, record, now);
    addCreationTallies(atomic, record);
    addVisitLimit(atomic, record, now);
    const result = await retryLocked(() => atomic.commit());
    if (result.ok) {
      if (previous !== null) {
        options.cache?.delete(slug);
        await rerankAfter(store, ranked);
      }
      return record;
    }
    // Another request wrote this slug first: look again.
  }
  if (input.slug !== undefined) throw new SlugTakenError(input.slug);
  throw new Error(`no free generated slug after ${attempts} draws`);
}

/**
 * Adds to `atomic` a limited link's count of visits taken, at none, kept as long as its record;
 * and for any new link, the end of a used-up mark its slug may hold from an earlier link.
 */
function addVisitLimit(atomic: Deno.AtomicOperation, record: DatedLinkRecord, now: number): void {
  atomic.delete(usedUpLinkKey(record.slug));
  if (record.maxVisits === undefined) return;
  atomic.set(linkVisitsKey(record.id), new Deno.KvU64(0n), {
    expireIn: Math.max(record.expiresAt - now, 0) + EXPIRED_GRACE_MS,
  });
}

/** Adds to `atomic` a new link's share of the tallies: one link, made on its day. */
export function addCreationTallies(atomic: Deno.AtomicOperation, record: LinkRecord): void {
  const day = dayOf(record.createdAt);
  atomic
    .set(linkStatsKey(record.id), newLinkStats(day))
    .sum(tallyKey(LINK_TALLY, ""), 1n)
    .sum(tallyKey(DAY_LINK_TALLY, day), 1n);
}
