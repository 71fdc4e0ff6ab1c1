/**
 * The click buffer: the redirect records visits in memory and never waits for the store; a
 * timer flushes them as batched atomic sums every second (a flush longer than that is followed
 * at once by the next), sooner when a large batch would otherwise lag past the target or the
 * buffer is very large, and once more on shutdown. A visit to a link that the flush under way
 * has still to write is written by it, so a visit waits about one flush at most. A flush that
 * fails is logged and retried; nothing is lost meanwhile.
 * @module
 */
import type { Store } from "../kv/store.ts";
import { DAY_MS, dayOf } from "../tallies/kinds.ts";
import { type RankedName, rerank } from "../tallies/rank.ts";
import { type CountryLookup, VisitClassifier, type VisitFacts } from "./classify.ts";
import {
  type ClickWriter,
  commitsInFlight,
  type FlushOutcome,
  type FlushPace,
  type KnownStats,
  LAG_TARGET_MS,
  type LinkVisits,
  newClickWriter,
  writeVisits,
} from "./flush.ts";
import { loadGeoipLookup } from "./geoip.ts";

/** The link a visit went to. */
export interface VisitedLink {
  slug: string;
  id: string;
  title: string;
}

/** Options of {@linkcode ClickBuffer}. */
export interface ClickBufferOptions {
  /**
   * Distinct pending visitors that make a flush start at once, a guard against a burst; default
   * 20,000. Below it the timer sets the pace, or the lag target for a large batch
   * ({@linkcode ClickBuffer.startIfBehind}): each link is written about once a tick while the
   * flush keeps up, which a lower threshold would double under a steady load of many links.
   */
  flushThreshold?: number;
  /** Pending visitors past which new visits are dropped, while the store is failing; default 200,000. */
  maxPending?: number;
  /** Country lookup by address; default the offline geoip database, loaded on first flush. */
  countryLookup?: CountryLookup;
  /** Where failures are reported; default `console.error`. */
  log?: (message: string, error?: unknown) => void;
  /** Told how many visits were recorded and written, for metrics. */
  onRecorded?: (visits: number) => void;
  /** Told what each committed chunk wrote, for metrics. */
  onFlushed?: (outcome: FlushOutcome) => void;
}

// A batch of fewer links is never flushed ahead of the timer, and a flush of fewer sets no pace:
// small flushes take their time in fixed costs, not in links.
const EARLY_FLUSH_LINKS = 1_000;

// The most of a visit's User-Agent and Referer a pending visit keeps: enough to tell a device
// or a bot and to find the referring host, and a flood of distinct visitors with huge headers
// (while the store is down and the buffer fills up to `maxPending`) stays within memory.
const MAX_KEPT_HEADER = 512;

// One visitor of a link, under the key `visitorKey` makes of the visit's facts (which the key
// alone holds, so a header cut short keeps no reference to the whole).
interface Visitor {
  count: number;
  last: number;
}

interface PendingLink extends VisitedLink {
  visitors: Map<string, Visitor>;
  /** When its first visit in the batch was recorded (epoch ms). */
  firstAt: number;
  /** Taken by a flush to be written: visits after that wait for the next batch. */
  taken: boolean;
  /** The first commit of its visits whose outcome is unknown, while they wait for a retry. */
  uncertainSince?: number;
}

interface Batch {
  day: string;
  dayEnd: number;
  links: Map<string, PendingLink>;
  size: number;
}

/** Buffers visits in memory and flushes them to the store. */
export class ClickBuffer {
  #store: Store;
  #options: ClickBufferOptions;
  #threshold: number;
  #maxPending: number;
  #batch: Batch;
  #retry: Batch[] = [];
  // Visitors waiting in #retry, kept up to date so the hot path need not add them up.
  #retrySize = 0;
  // Batches a flush is writing now: out of #retry, not yet written.
  #writing: Batch[] = [];
  // The batch being written this moment: a visit to one of its links not yet taken joins it,
  // and is written by this flush rather than the next.
  #open: Batch | null = null;
  #touched = new Map<string, RankedName>();
  #known: KnownStats = new Map();
  #writer: ClickWriter = newClickWriter();
  #flushing: Promise<void> | null = null;
  // A timer tick came while a flush was under way: the next flush starts as it ends.
  #again = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #intervalMs = 1000;
  #paceTimer: ReturnType<typeof setInterval> | undefined;
  // The wall time the last large flush took a link (see startIfBehind); 0 until one has run.
  #msPerLink = 0;
  #classifier: Promise<VisitClassifier> | null = null;
  #dropped = 0;

  /** Builds a buffer over `store`. */
  constructor(store: Store, options: ClickBufferOptions = {}) {
    this.#store = store;
    this.#options = options;
    this.#threshold = options.flushThreshold ?? 20_000;
    this.#maxPending = options.maxPending ?? 200_000;
    this.#batch = this.#newBatch(store.now());
  }

  /** Visits recorded and not yet written (distinct visitors per link). */
  get pending(): number {
    return this.#batch.size + this.#retrySize;
  }

  /**
   * How long the oldest visit not yet written has waited, in ms at `now`; 0 when every visit is
   * written. Clicks lag their visits by this much at most. Reads every link waiting: for a
   * metrics scrape, not for the request path.
   */
  waitingMs(now: number = this.#store.now()): number {
    const oldest = oldestVisitAt([...this.#writing, ...this.#retry, this.#batch]);
    // A clock set back past the first visit reads as no wait, never as a negative one.
    return oldest === Infinity ? 0 : Math.max(0, now - oldest);
  }

  /** Visits dropped because the buffer was full while the store failed. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Records one visit; cheap, synchronous, never throws for the store's sake. */
  record(link: VisitedLink, facts: VisitFacts): void {
    this.recordVisit(link, facts.userAgent, facts.referer, facts.client, facts.country);
  }

  /**
   * {@linkcode ClickBuffer.record} with the facts as arguments, for the redirect's hot path: a
   * repeat visitor allocates nothing, and a caller that has read the clock passes `now`.
   */
  recordVisit(
    link: VisitedLink,
    userAgent: string,
    referer: string,
    client: string,
    country: string,
    now: number = this.#store.now(),
  ): void {
    if (now >= this.#batch.dayEnd) this.#rollOver(now);
    if (this.#batch.size + this.#retrySize >= this.#maxPending) {
      this.#dropped++;
      return;
    }
    const open = this.#open;
    const joining = open?.links.get(link.id);
    if (
      open && joining && !joining.taken && now < open.dayEnd &&
      open.size + this.#batch.size + this.#retrySize < this.#maxPending
    ) {
      // Its link is still to be written by the flush under way: written with it. The batch
      // being written counts toward the bound here, so joining never passes it.
      addVisit(open, joining, userAgent, referer, client, country, now);
    } else {
      const batch = this.#batch;
      let pending = batch.links.get(link.id);
      if (pending === undefined) {
        pending = {
          slug: link.slug,
          id: link.id,
          title: link.title,
          visitors: new Map(),
          firstAt: now,
          taken: false,
        };
        batch.links.set(link.id, pending);
      }
      if (addVisit(batch, pending, userAgent, referer, client, country, now)) {
        if (batch.size >= this.#threshold) queueMicrotask(() => void this.flush());
      }
    }
    this.#options.onRecorded?.(1);
  }

  /** Writes everything recorded so far; concurrent calls share one flush. */
  flush(): Promise<void> {
    this.#flushing ??= this.#flushAll().finally(() => {
      this.#flushing = null;
      if (this.#again && this.#timer !== undefined) void this.flush();
      this.#again = false;
    });
    return this.#flushing;
  }

  /**
   * Flushes every `intervalMs` (default 1 s) until {@linkcode ClickBuffer.stop}, and sooner
   * when a large batch would lag past the target ({@linkcode ClickBuffer.startIfBehind}, checked
   * every tenth of that).
   */
  start(intervalMs = 1000): void {
    this.#intervalMs = intervalMs;
    this.#timer ??= this.#startTicks();
    this.#paceTimer ??= setInterval(() => this.startIfBehind(), intervalMs / 10);
  }

  #startTicks(): ReturnType<typeof setInterval> {
    return setInterval(() => {
      // A flush still under way at the tick is followed at once by the next: flushes longer
      // than a tick run back to back.
      if (this.#flushing !== null) this.#again = true;
      else void this.flush();
    }, this.#intervalMs);
  }

  /**
   * Starts a flush now, ahead of the timer, when the batch taking visits is large and its
   * oldest visit's wait, plus what its links would take at the last large flush's pace, reaches
   * the lag target. A flush's work grows with its links, so under many distinct links a second
   * the batch is written sooner and smaller. The timer's next tick then comes a full interval
   * later, so an early flush takes the tick's place rather than adding one. Does nothing while
   * a failed batch (or one set aside at midnight) waits: the tick retries those. True when it
   * started a flush.
   */
  startIfBehind(now: number = this.#store.now()): boolean {
    if (this.#flushing !== null || this.#retry.length > 0) return false;
    const batch = this.#batch;
    if (batch.links.size < EARLY_FLUSH_LINKS || this.#msPerLink === 0) return false;
    const oldestAt = batch.links.values().next().value!.firstAt; // links go in as first visited
    if (now - oldestAt + batch.links.size * this.#msPerLink < LAG_TARGET_MS) return false;
    if (this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = this.#startTicks();
    }
    void this.flush();
    return true;
  }

  /** Stops the timers and flushes what is left; a failure here is reported, not thrown. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    clearInterval(this.#paceTimer);
    this.#timer = undefined;
    this.#paceTimer = undefined;
    await this.flush();
    if (this.#batch.size > 0 || this.#retry.length > 0) await this.flush();
  }

  async #flushAll(): Promise<void> {
    if (this.#batch.size > 0) this.#rollOver(this.#store.now());
    const batches = this.#retry;
    this.#keepForRetry([]);
    this.#writing = batches;
    // After an outage there is a batch per second of it; their links together size the commits.
    const links = batches.reduce((sum, batch) => sum + batch.links.size, 0);
    const pace: FlushPace = {
      oldestAt: oldestVisitAt(batches),
      startedAt: this.#store.now(),
      written: 0,
    };
    try {
      for (const [i, batch] of batches.entries()) {
        try {
          await this.#write(batch, links, pace);
        } catch (error) {
          // Keep this batch and the rest for the next flush; nothing recorded is lost. They go
          // before any batch that midnight moved to #retry meanwhile: a link's visits are
          // written oldest first, which a retry's check for a commit that landed relies on.
          this.#keepForRetry([...batches.slice(i), ...this.#retry]);
          throw error;
        }
      }
      if (links >= EARLY_FLUSH_LINKS) {
        this.#msPerLink = (this.#store.now() - pace.startedAt) / links;
      }
      // Names whose counts moved take their new places; a rerank that fails keeps them for the
      // next one (see `rerank`), which the next flush runs.
      const touched = [...this.#touched.values()];
      this.#touched.clear();
      await rerank(this.#store, touched);
    } catch (error) {
      this.#report("click flush failed, will retry", error);
    } finally {
      this.#writing = [];
    }
  }

  /**
   * Writes one batch of a flush of `flushLinks` links whose `pace` is kept up to date as its
   * chunks commit: a flush falling behind the lag target takes more of the core (see
   * `commitsInFlight`).
   */
  async #write(batch: Batch, flushLinks: number, pace: FlushPace): Promise<void> {
    const classifier = await this.#classifierReady();
    // The pace is the store's: it counts from the first write, not from loading the country
    // database that the process's first flush waits for.
    if (pace.written === 0) pace.startedAt = this.#store.now();
    this.#open = batch;
    try {
      await writeVisits(this.#store, summaries(batch, classifier), {
        flushLinks,
        touched: this.#touched,
        known: this.#known,
        writer: this.#writer,
        inFlight: () => commitsInFlight(flushLinks, pace, this.#store.now()),
        onCommitted: (chunk, outcome) => {
          pace.written += chunk.length;
          // Committed chunks leave the batch, so a retry never writes them twice.
          for (const link of chunk) {
            const pending = batch.links.get(link.id);
            if (pending) batch.size -= pending.visitors.size;
            batch.links.delete(link.id);
          }
          this.#options.onFlushed?.(outcome);
        },
        onUncertain: (chunk) => {
          for (const link of chunk) {
            const pending = batch.links.get(link.id);
            if (pending) pending.uncertainSince ??= link.uncertainSince;
          }
        },
        onRefused: (link, error) => {
          this.#report(
            `click figures of link ${link.slug} are too large to write; visits dropped`,
            error,
          );
        },
      });
    } finally {
      this.#open = null;
    }
  }

  #rollOver(now: number): void {
    if (this.#batch.size > 0) this.#keepForRetry([...this.#retry, this.#batch]);
    this.#batch = this.#newBatch(now);
  }

  #keepForRetry(batches: Batch[]): void {
    this.#retry = batches;
    this.#retrySize = batches.reduce((sum, batch) => sum + batch.size, 0);
  }

  #newBatch(now: number): Batch {
    const dayStart = now - (now % DAY_MS);
    return { day: dayOf(now), dayEnd: dayStart + DAY_MS, links: new Map(), size: 0 };
  }

  #classifierReady(): Promise<VisitClassifier> {
    this.#classifier ??= (async () => {
      const lookup = this.#options.countryLookup ?? await loadGeoipLookup();
      return new VisitClassifier(lookup);
    })();
    this.#classifier.catch(() => {
      this.#classifier = null;
    });
    return this.#classifier;
  }

  #report(message: string, error: unknown): void {
    (this.#options.log ?? ((text, cause) => console.error(text, cause)))(message, error);
  }
}

/** When the oldest visit waiting in `batches` was recorded (epoch ms); Infinity when none waits. */
function oldestVisitAt(batches: Batch[]): number {
  let oldest = Infinity;
  for (const batch of batches) {
    for (const link of batch.links.values()) oldest = Math.min(oldest, link.firstAt);
  }
  return oldest;
}

/**
 * Each link of `batch` summarized as it is taken, so a flush does that work a chunk at a time
 * between its commits. The links go in the order of their ids, which is the order of their
 * figures in the store: a commit's links then share the store's pages, where links in the order
 * they were visited would each touch pages of their own (`deno task bench flush`). Links leave
 * the batch as their chunks commit, while this runs.
 */
function* summaries(batch: Batch, classifier: VisitClassifier): Generator<LinkVisits> {
  for (const id of [...batch.links.keys()].sort()) {
    const link = batch.links.get(id);
    if (link === undefined) continue;
    link.taken = true; // its visits from now on wait for the next batch
    yield summarize(link, batch.day, classifier);
  }
}

/** Adds a visit to `pending`, a link of `batch`; true when it is a new visitor of the link. */
function addVisit(
  batch: Batch,
  pending: PendingLink,
  userAgent: string,
  referer: string,
  client: string,
  country: string,
  now: number,
): boolean {
  const key = visitorKey(userAgent, referer, client, country);
  const visitor = pending.visitors.get(key);
  if (visitor) {
    visitor.count++;
    visitor.last = now;
    return false;
  }
  pending.visitors.set(key, { count: 1, last: now });
  batch.size++;
  return true;
}

/**
 * One string for a visitor: its facts joined by newlines, which no header value holds, with
 * the User-Agent and Referer cut to {@linkcode MAX_KEPT_HEADER}. A repeat visitor's key is
 * built from the very strings it came with, cut only when long.
 */
function visitorKey(userAgent: string, referer: string, client: string, country: string): string {
  return `${kept(userAgent)}\n${kept(referer)}\n${client}\n${country}`;
}

function kept(header: string): string {
  return header.length > MAX_KEPT_HEADER ? header.slice(0, MAX_KEPT_HEADER) : header;
}

/** The facts a {@linkcode visitorKey} holds. */
function factsOf(key: string): VisitFacts {
  const [userAgent = "", referer = "", client = "", country = ""] = key.split("\n");
  return { userAgent, referer, client, country };
}

function summarize(link: PendingLink, day: string, classifier: VisitClassifier): LinkVisits {
  const visits: LinkVisits = {
    slug: link.slug,
    id: link.id,
    title: link.title,
    clicks: 0,
    lastUsedAt: 0,
    day,
    referrers: new Map(),
    devices: new Map(),
    countries: new Map(),
  };
  if (link.uncertainSince !== undefined) visits.uncertainSince = link.uncertainSince;
  for (const [key, visitor] of link.visitors) {
    const kind = classifier.classify(factsOf(key));
    add(visits.devices, kind.device, visitor.count);
    if (kind.bot) continue;
    visits.clicks += visitor.count;
    visits.lastUsedAt = Math.max(visits.lastUsedAt, visitor.last);
    add(visits.referrers, kind.referrer, visitor.count);
    add(visits.countries, kind.country, visitor.count);
  }
  return visits;
}

function add(counts: Map<string, number>, name: string, count: number): void {
  counts.set(name, (counts.get(name) ?? 0) + count);
}
