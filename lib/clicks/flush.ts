/**
 * Writing buffered visits to the store: each link's figures and the service-wide sums change
 * together in one atomic commit per chunk of links, so a link's share and the totals never
 * disagree; the order of the ranked names is brought up to date after.
 * @module
 */
import {
  COMMIT_LIMITS,
  type CommitCost,
  groupsWithin,
  KEY_BYTES_BUDGET,
  LINK_KEY_BYTES,
  nameKeyBytes,
} from "../kv/commit_size.ts";
import { getManyChunked } from "../kv/get_many.ts";
import { linkRankKey, linkStatsKey, tallyKey } from "../kv/keys.ts";
import { isTooLarge } from "../kv/guard.ts";
import { retryLocked } from "../kv/retry.ts";
import type { Store } from "../kv/store.ts";
import {
  CLICKS,
  COUNTRIES,
  DAY_CLICKS,
  DEVICES,
  RANKED_KINDS,
  REFERRERS,
  tallyNameKey,
} from "../tallies/kinds.ts";
import type { RankedName } from "../tallies/rank.ts";
import {
  addShare,
  clicksOf,
  type LinkStats,
  OTHER_REFERRERS,
  readLinkStats,
} from "../tallies/shares.ts";

/** One link's visits, classified and summed. */
export interface LinkVisits {
  slug: string;
  id: string;
  title: string;
  /** Clicks by people. */
  clicks: number;
  /** Time of the last click by a person (epoch ms), 0 when none. */
  lastUsedAt: number;
  /** UTC day of the visits. */
  day: string;
  /** Clicks by people per referring host. */
  referrers: Map<string, number>;
  /** Visits per device class, bots included. */
  devices: Map<string, number>;
  /** Clicks by people per country. */
  countries: Map<string, number>;
  /**
   * The number of the first commit that held these visits and whose outcome is unknown (see
   * {@linkcode WriteVisitsOptions.onUncertain}); absent when none was.
   */
  uncertainSince?: number;
}

/** What a flush wrote. */
export interface FlushOutcome {
  /** Clicks by people written. */
  clicks: number;
  /** Bot visits written. */
  bots: number;
  /** Visits dropped: their link was gone by then, or its figures too large to write. */
  dropped: number;
}

/**
 * A writer of click figures (a click buffer: one a process). Each commit takes the next
 * number, never less than the clock's ms, and every link it writes keeps that number under the
 * writer's id ({@linkcode LinkStats.writers}). A commit whose outcome is unknown (the store
 * failed to answer: a remote store may have committed it all the same) is then told apart on
 * the retry, link by link: a writer writes a link's visits oldest first, and until they are
 * written no other commit of its touches the link, so the link's figures hold that commit's
 * number, or a later one, only when one of the commits that carried those visits landed.
 */
export interface ClickWriter {
  readonly id: string;
  /** The number of its last commit. */
  last: number;
}

/** A new writer, with an id of its own. */
export function newClickWriter(): ClickWriter {
  return { id: crypto.randomUUID().slice(0, 8), last: 0 };
}

// The writer of callers that name none.
const defaultWriter = newClickWriter();

function nextCommitNumber(writer: ClickWriter, now: number): number {
  writer.last = Math.max(writer.last + 1, now);
  return writer.last;
}

// A link's figures keep the writers that wrote them within the last WRITERS_KEPT_MS, at most
// MAX_WRITERS of them, so that a retry finds its own commit among other instances' writes.
const WRITERS_KEPT_MS = 3600_000;
const MAX_WRITERS = 16;

// An atomic allows 100 checks (one per link here) and 1,000 mutations, but a commit is kept
// far below that: on one core, building a commit and the store's work on it hold the event loop
// for some 0.3 ms plus 75 µs a link, and requests wait meanwhile. So a flush takes about
// COMMITS_PER_FLUSH commits of at least MIN_LINKS links: a second's 1,000 links go ten at a
// time, which side by side gave the redirect a p99 a quarter lower than thirty at a time, for
// 1-6% of its throughput. Each commit costs the store some 200 µs of CPU, so a large flush,
// where that adds up, takes more links a commit, up to MAX_LINKS (within the atomic's 100
// checks): with 20,000 distinct links a second the flush then keeps clicks' lag near the
// contract's 2 s, where 30 a commit let it reach 4-5 s (docs/benchmarks.md).
const COMMITS_PER_FLUSH = 100;
const MIN_LINKS = 10;
const MAX_LINKS = 90;
const MUTATIONS_PER_LINK = 10;
// With one commit in flight, on one core, the store's thread idles from the end of a commit
// until the event loop hands it the next, behind the requests that came meanwhile: under a
// load of 20,000 distinct links a second a flush then took 2-3 s, and clicks lagged up to 5 s.
// A flush of more than LARGE_FLUSH links keeps LARGE_FLUSH_IN_FLIGHT commits in flight, so the
// store always has the next one, and the flush takes a larger share of the core from the
// requests while it lasts (docs/benchmarks.md). Chunks of one flush hold different links, and
// their sums add up in any order, so concurrent commits never conflict with each other.
const LARGE_FLUSH = 3_000;
const LARGE_FLUSH_IN_FLIGHT = 2;
/**
 * The longest a flush aims to let a visit wait: the contract allows clicks to lag a visit by
 * 2 s, and the margin covers a flush's last commits and a late timer. A flush whose pace so far
 * would write its last link later than that after its oldest visit keeps BEHIND_IN_FLIGHT
 * commits in flight until it is back on pace: a 1,000,000-link store under 20,000 distinct links
 * a second needs that share of the core (docs/benchmarks.md).
 */
export const LAG_TARGET_MS = 1_500;
const BEHIND_IN_FLIGHT = 4;

/** Where a flush under way stands, to judge whether it keeps pace with the lag allowed. */
export interface FlushPace {
  /** When the oldest visit it writes was recorded (epoch ms). */
  oldestAt: number;
  /** When it began (epoch ms). */
  startedAt: number;
  /** Links it has written so far. */
  written: number;
}

/** Options of {@linkcode writeVisits}. */
export interface WriteVisitsOptions {
  /** Told of each committed chunk and what it wrote. */
  onCommitted(chunk: LinkVisits[], outcome: FlushOutcome): void;
  /**
   * Told of a link whose figures the store refuses to take even alone (too large for a record);
   * its visits are dropped rather than left to block every flush after.
   */
  onRefused(link: LinkVisits, error: unknown): void;
  /**
   * Links the whole flush writes (more than `links` when they are one of several batches); sets
   * how many links a commit takes.
   */
  flushLinks: number;
  /**
   * Told of a chunk whose commit threw: it may have landed all the same. Each link's
   * `uncertainSince` is set by then; the caller keeps the chunk's visits, and gives them that
   * `uncertainSince` until they are written, so that a retry writes them only when no commit
   * of theirs landed.
   */
  onUncertain?(chunk: LinkVisits[]): void;
  /** Who writes, numbering its commits; default one writer for the process. */
  writer?: ClickWriter;
  /**
   * How many commits to keep in flight (at least one), asked as the flush starts and after each
   * commit; default {@linkcode commitsInFlight} of `flushLinks`, with no pace known.
   */
  inFlight?: () => number;
  /** Gathers the ranked names whose counts changed, for {@linkcode rerank} after. */
  touched: Map<string, RankedName>;
  /**
   * The figures this process last wrote for each link, kept across flushes: a link clicked
   * again is written against them, checked, without reading it first. Entries found stale are
   * read again.
   */
  known: KnownStats;
}

/** Links' figures as this process last wrote them: id to entry. */
export type KnownStats = Map<string, Deno.KvEntry<LinkStats>>;

// Links whose last written figures are remembered, the oldest forgotten first.
const MAX_KNOWN = 100_000;

/**
 * Writes the visits of many links, a chunk at a time: each chunk is one atomic commit that
 * checks every link's figures it read, retried when another writer moved first. Visits of a
 * link whose figures are gone (removed, expired and swept) are dropped. Yields to the event
 * loop between chunks, and takes `links` from their iterator only as chunks need them, so a
 * caller that summarizes links as they are taken does that work between commits too. A large
 * flush has a few chunks in flight at once ({@linkcode commitsInFlight}). Throws on a store
 * failure once the chunks in flight have settled; chunks already committed stay committed, and
 * `onCommitted` has been told of each of them.
 */
export async function writeVisits(
  store: Store,
  links: Iterable<LinkVisits>,
  options: WriteVisitsOptions,
): Promise<FlushOutcome> {
  let total: FlushOutcome = { clicks: 0, bots: 0, dropped: 0 };
  // One chunk or a few in flight, each lane taking the next from the same iterator, so a link
  // is written once. Lanes start and end between chunks as the number wanted changes; one
  // always runs while chunks are left. A lane that fails closes the iterator and keeps its
  // error, so none rejects unwatched; the others finish their chunk.
  const chunks = chunksOf(links, options.flushLinks);
  const asked = options.inFlight ?? (() => commitsInFlight(options.flushLinks));
  const wanted = () => Math.max(1, asked() || 1);
  const lanes: Promise<void>[] = [];
  let running = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    running++;
    try {
      for (;;) {
        const next = chunks.next();
        if (next.done) return;
        // Each chunk waits on the store, so requests are served between chunks.
        const outcome = await writeChunk(store, next.value, options);
        total = sumOutcomes(total, outcome); // added after the wait: other lanes add meanwhile
        if (running > wanted()) return;
        startLanes();
      }
    } catch (error) {
      failure ??= { error };
      chunks.return(undefined);
    } finally {
      running--;
    }
  };
  const startLanes = () => {
    for (let more = wanted() - running; more > 0; more--) lanes.push(lane());
  };
  startLanes();
  // Lanes started while others ran are waited for too.
  for (let waited = 0; waited < lanes.length;) {
    waited = lanes.length;
    await Promise.all(lanes);
  }
  if (failure !== undefined) throw failure.error;
  return total;
}

function sumOutcomes(a: FlushOutcome, b: FlushOutcome): FlushOutcome {
  return { clicks: a.clicks + b.clicks, bots: a.bots + b.bots, dropped: a.dropped + b.dropped };
}

/** Every visit of `link`, by people and bots. */
function visitsOf(link: LinkVisits): number {
  return link.clicks + (link.devices.get("bot") ?? 0);
}

/** The most links one commit of a flush of `count` links takes. */
export function linksPerCommit(count: number): number {
  return Math.min(MAX_LINKS, Math.max(MIN_LINKS, Math.ceil(count / COMMITS_PER_FLUSH)));
}

/**
 * The commits a flush of `count` links keeps in flight at once: one, unless the flush is large
 * (see {@linkcode LARGE_FLUSH}); more while its `pace` up to `now` would make its oldest visit
 * wait past the lag allowed (see {@linkcode LAG_TARGET_MS}).
 */
export function commitsInFlight(count: number, pace?: FlushPace, now?: number): number {
  const usual = count > LARGE_FLUSH ? LARGE_FLUSH_IN_FLIGHT : 1;
  if (pace === undefined || now === undefined || pace.written === 0) return usual;
  const left = count - pace.written;
  if (left <= 0) return usual;
  const msPerLink = Math.max(0, now - pace.startedAt) / pace.written;
  const done = now + left * msPerLink;
  return done > pace.oldestAt + LAG_TARGET_MS ? Math.max(usual, BEHIND_IN_FLIGHT) : usual;
}

/**
 * Links in chunks of at most {@linkcode linksPerCommit} links of a flush of `flushLinks`, each
 * costing a check, three writes and its sums: a chunk of many shares holds fewer links, and so
 * does one of long names (a referring host can take 253 characters, and each name is a key).
 */
export function chunksOf(
  links: Iterable<LinkVisits>,
  flushLinks: number,
): Generator<LinkVisits[]> {
  const maxLinks = linksPerCommit(flushLinks);
  const limits = {
    ...COMMIT_LIMITS,
    mutations: maxLinks * MUTATIONS_PER_LINK,
    keyBytes: KEY_BYTES_BUDGET,
  };
  return groupsWithin(links, costOfLink, limits, maxLinks);
}

/** A link's part of a commit: a check, three writes and its sums, each sum's key a name. */
function costOfLink(link: LinkVisits): CommitCost {
  let keyBytes = LINK_KEY_BYTES;
  for (const names of [link.referrers, link.devices, link.countries]) {
    for (const name of names.keys()) keyBytes += nameKeyBytes(name);
  }
  const mutations = 5 + link.referrers.size + link.devices.size + link.countries.size;
  return { checks: 1, mutations, keyBytes };
}

/**
 * Writes one chunk, read and built afresh when another writer moved first. A chunk the store
 * refuses for its size (figures grown large, long names) is written as two halves instead, down
 * to a single link, whose visits are then dropped. `onCommitted` is told of each part as it
 * commits.
 */
async function writeChunk(
  store: Store,
  chunk: LinkVisits[],
  options: WriteVisitsOptions,
): Promise<FlushOutcome> {
  const { known, touched } = options;
  for (;;) {
    let attempt: ChunkAttempt;
    const writer = options.writer ?? defaultWriter;
    const commit = nextCommitNumber(writer, store.now());
    try {
      attempt = await commitChunk(store, chunk, known, writer, commit);
    } catch (error) {
      // The figures may have been added to in place: forget them, and read them again.
      for (const link of chunk) known.delete(link.id);
      if (!isTooLarge(error)) {
        for (const link of chunk) link.uncertainSince ??= commit;
        options.onUncertain?.(chunk);
        throw error;
      }
      if (chunk.length === 1) {
        const link = chunk[0]!;
        options.onRefused(link, error);
        const dropped = { clicks: 0, bots: 0, dropped: visitsOf(link) };
        options.onCommitted(chunk, dropped);
        return dropped;
      }
      const half = Math.ceil(chunk.length / 2);
      const first = await writeChunk(store, chunk.slice(0, half), options);
      const second = await writeChunk(store, chunk.slice(half), options);
      return sumOutcomes(first, second);
    }
    const { result, written, sums, outcome } = attempt;
    if (!result.ok) {
      // Another writer moved first: forget what this chunk remembered, and read again. Or the
      // store took this very commit on a try that answered "locked", and the check failed on
      // the next try: the read finds its number then.
      for (const link of chunk) {
        known.delete(link.id);
        link.uncertainSince ??= commit;
      }
      continue;
    }
    for (const entry of written) {
      const id = String(entry.key[1]);
      known.delete(id); // re-inserted last, so the oldest are forgotten first
      if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
      entry.versionstamp = result.versionstamp;
      known.set(id, entry);
    }
    for (const { kind, name } of sums) {
      if (RANKED_KINDS.has(kind)) touched.set(tallyNameKey(kind, name), { kind, name });
    }
    // Their names' counts moved when the commit that landed unanswered did.
    for (const { kind, name } of attempt.landed) {
      touched.set(tallyNameKey(kind, name), { kind, name });
    }
    options.onCommitted(chunk, outcome);
    return outcome;
  }
}

/** One try at a chunk's commit, and what it would write. */
interface ChunkAttempt {
  result: Deno.KvCommitResult | Deno.KvCommitError;
  /** Each link's new figures, as committed. */
  written: Deno.KvEntry<LinkStats>[];
  /** The tallies' sums. */
  sums: Iterable<{ kind: string; name: string }>;
  /** The ranked names of links found written by an earlier commit whose outcome was unknown. */
  landed: RankedName[];
  outcome: FlushOutcome;
}

/**
 * Reads the chunk's figures, adds its visits to them and commits as commit number `commit`,
 * checked against what it read; a link whose figures show that an earlier commit of its visits
 * landed is left as it is. The figures this process wrote last are added to in place; whoever
 * catches a throw here must forget them.
 */
async function commitChunk(
  store: Store,
  chunk: LinkVisits[],
  known: KnownStats,
  writer: ClickWriter,
  commit: number,
): Promise<ChunkAttempt> {
  const entries = await readLinkFigures(store, chunk, known);
  const written: Deno.KvEntry<LinkStats>[] = [];
  const atomic = store.kv.atomic();
  const sums = new Map<string, { kind: string; name: string; count: number }>();
  const add = (kind: string, name: string, count: number) => {
    const key = tallyNameKey(kind, name);
    const sum = sums.get(key);
    if (sum) sum.count += count;
    else sums.set(key, { kind, name, count });
  };
  const outcome: FlushOutcome = { clicks: 0, bots: 0, dropped: 0 };
  const landed: RankedName[] = [];
  const now = store.now();
  chunk.forEach((link, i) => {
    const entry = entries[i]!;
    if (entry.value === null) {
      outcome.dropped += visitsOf(link);
      return;
    }
    // Written now, or by an earlier commit of these visits that landed: counted either way.
    outcome.clicks += link.clicks;
    outcome.bots += link.devices.get("bot") ?? 0;
    // Figures this process wrote last are its own object: added to in place, no copy made.
    const stats = known.get(link.id)?.value === entry.value
      ? entry.value as LinkStats
      : readLinkStats(entry.value);
    if (link.uncertainSince !== undefined && wroteSince(stats, writer, link.uncertainSince)) {
      landed.push(...rankedNamesOf(link, stats));
      return;
    }
    noteWriter(stats, writer, commit, now);
    const before = BigInt(clicksOf(stats));
    if (link.clicks > 0) {
      add(CLICKS, addShare(stats, CLICKS, "", link.clicks), link.clicks);
      add(DAY_CLICKS, addShare(stats, DAY_CLICKS, link.day, link.clicks), link.clicks);
      stats.lastUsedAt = Math.max(stats.lastUsedAt ?? 0, link.lastUsedAt);
      if (before > 0n) atomic.delete(linkRankKey(before, link.id));
      atomic.set(linkRankKey(before + BigInt(link.clicks), link.id), {
        slug: link.slug,
        title: link.title,
      });
    }
    for (const [kind, counts] of breakdownsOf(link)) {
      for (const [name, count] of counts) add(kind, addShare(stats, kind, name, count), count);
    }
    atomic.check(entry).set(entry.key, stats);
    written.push({ key: entry.key, value: stats, versionstamp: "" });
  });
  for (const { kind, name, count } of sums.values()) {
    atomic.sum(tallyKey(kind, name), BigInt(count));
  }
  const result = await retryLocked(() => atomic.commit());
  return { result, written, sums: sums.values(), landed, outcome };
}

/** Whether `writer`'s commit number `commit`, or a later one, wrote `stats`. */
function wroteSince(stats: LinkStats, writer: ClickWriter, commit: number): boolean {
  return (stats.writers?.[writer.id] ?? -Infinity) >= commit;
}

/**
 * Notes commit number `commit` of this writer in `stats`, forgetting writers not heard from
 * within {@linkcode WRITERS_KEPT_MS} of `now`, and the least recent past {@linkcode MAX_WRITERS}.
 */
function noteWriter(stats: LinkStats, writer: ClickWriter, commit: number, now: number): void {
  const writers = stats.writers ??= Object.create(null) as Record<string, number>;
  writers[writer.id] = commit;
  const ids = Object.keys(writers);
  if (ids.length === 1) return;
  for (const id of ids) {
    if (writers[id]! < now - WRITERS_KEPT_MS) delete writers[id];
  }
  const kept = Object.keys(writers);
  if (kept.length <= MAX_WRITERS) return;
  kept.sort((a, b) => writers[a]! - writers[b]!);
  for (const id of kept.slice(0, kept.length - MAX_WRITERS)) delete writers[id];
}

/** The link's visits by name, per ranked kind: referrers, devices, countries. */
function breakdownsOf(link: LinkVisits): [kind: string, counts: Map<string, number>][] {
  return [[REFERRERS, link.referrers], [DEVICES, link.devices], [COUNTRIES, link.countries]];
}

/** The ranked names `link`'s visits were counted under in `stats`. */
function rankedNamesOf(link: LinkVisits, stats: LinkStats): RankedName[] {
  const names: RankedName[] = [];
  for (const [kind, counts] of breakdownsOf(link)) {
    for (const name of counts.keys()) {
      // A referrer past the link's limit was counted as `other`.
      const counted = kind === REFERRERS && !Object.hasOwn(stats.shares[kind] ?? {}, name)
        ? OTHER_REFERRERS
        : name;
      names.push({ kind, name: counted });
    }
  }
  return names;
}

/** Each link's figures: as this process last wrote them when it remembers, else as stored. */
async function readLinkFigures(
  store: Store,
  chunk: LinkVisits[],
  known: KnownStats,
): Promise<Deno.KvEntryMaybe<unknown>[]> {
  const entries: (Deno.KvEntryMaybe<unknown> | undefined)[] = chunk.map((link) =>
    known.get(link.id)
  );
  const missing = chunk.filter((_, i) => entries[i] === undefined);
  if (missing.length === 0) return entries as Deno.KvEntryMaybe<unknown>[];
  const read = await getManyChunked(store.kv, missing.map((link) => linkStatsKey(link.id)));
  let next = 0;
  return entries.map((entry) => entry ?? read[next++]!);
}
