/**
 * The figure book: what the slower cadence has still to write, link by link, with the journal
 * parts that hold it in the store until it is written.
 * @module
 */
import { COUNTRY_TALLY, DEVICE_TALLY, REFERRER_TALLY, tallyNameKey } from "../tallies/kinds.ts";
import type { RankedName } from "../tallies/rank.ts";
import { OTHER_REFERRERS } from "../tallies/shares.ts";
import { foldedIn, type JournalPart } from "./journal.ts";
import type { CommitSequence } from "./sequence.ts";
import {
  type CountedLink,
  type Counts,
  countUnder,
  type LinkDeltas,
  type LinkVisits,
  VISIT_STRIDE,
} from "./visits.ts";

/** A link's visits waiting for the slower cadence. */
export interface WaitingFigures extends CountedLink {
  /** Clicks by people per UTC day. */
  days: Map<string, number>;
  referrers: Map<string, number>;
  /** Visits per device class, bots included. */
  devices: Map<string, number>;
  countries: Map<string, number>;
  /** When it is to be written (epoch ms). */
  dueAt: number;
  /** When its first visit waiting was added (epoch ms). */
  since: number;
  /** An estimate of the memory it takes, in bytes. */
  bytes: number;
  /** The journal parts its deltas came from: its write marks them folded. */
  parts: JournalPart[];
  /** Clicks by people this writer's own commits journaled for it, in this entry. */
  journaled: number;
  /** The last of this writer's journal parts that holds them. */
  journaledIn: JournalPart | null;
  /** The number of the last commit that carried it and whose outcome is unknown. */
  uncertainAt?: number;
  /** Set once the book gave it up: another writer took its journal over. */
  abandoned?: boolean;
}

// A generous estimate of what a waiting link and each name it counts hold in memory.
const FIGURES_BYTES = 400;
const NAME_BYTES = 80;

/**
 * Links' figures waiting, added to as each second's clicks are committed (or as a silent
 * writer's journal is taken over). A link is due `lagMs` after its first visit waiting, a little
 * sooner by a share of its id, so links first clicked in the same second are not all due in the
 * same second after. Bounded by bytes: past `maxBytes`, the links waiting longest fall due at
 * once.
 */
export class FigureBook {
  #links = new Map<string, WaitingFigures>();
  // The clicks of the links written in the last WRITTEN_KEPT_MS, oldest first and by link: a
  // read of a record made before their commit landed may still ask for them.
  #written: WrittenClicks[] = [];
  #writtenOf = new Map<string, WrittenClicks[]>();
  // The time of the last `take`, when the links it gave are written.
  #clock = 0;
  #bytes = 0;
  #lagMs: number;
  #maxBytes: number;
  // Journal parts every link of which is written: to delete.
  #spent: Deno.KvKey[] = [];

  /** A book whose links are due within `lagMs`, holding about `maxBytes` at most. */
  constructor(lagMs: number, maxBytes: number) {
    this.#lagMs = lagMs;
    this.#maxBytes = maxBytes;
  }

  /** Links waiting. */
  get size(): number {
    return this.#links.size;
  }

  /** The estimated memory the links waiting take, in bytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** When the link waiting longest was first visited (epoch ms); Infinity when none waits. */
  get oldest(): number {
    return this.#links.values().next().value?.since ?? Infinity;
  }

  /**
   * Adds `link`'s visits, which this writer's commit journaled in `part`, at `now`: due `lagMs`
   * after the first visit waiting. Counted from the visits themselves, so that no counts are
   * made for them in between; or, for a line the journal `cut` down, as the journal holds them.
   */
  add(link: LinkVisits, part: JournalPart, now: number, cut: LinkDeltas | null = null): void {
    const figures = this.#waiting(link, part, now);
    figures.journaled += link.clicks;
    figures.journaledIn = part;
    const bytes = cut === null ? countVisits(figures, link) : countDeltas(figures, cut);
    this.#counted(figures, link, bytes);
  }

  /**
   * Adds `deltas` of a writer taken over, held in the store by its journal `part`, at `now`: due
   * at once (late already). Their clicks are another writer's to count (`OtherJournals`).
   */
  adopt(deltas: LinkDeltas, part: JournalPart, now: number): void {
    const figures = this.#waiting(deltas, part, now);
    figures.dueAt = Math.min(figures.dueAt, now);
    this.#counted(figures, deltas, countDeltas(figures, deltas));
  }

  /** The figures waiting of `link`, made at `now` when none wait, with `part` among theirs. */
  #waiting(link: CountedLink, part: JournalPart, now: number): WaitingFigures {
    let figures = this.#links.get(link.id);
    if (figures === undefined) {
      figures = {
        slug: link.slug,
        id: link.id,
        title: link.title,
        clicks: 0,
        bots: 0,
        lastUsedAt: 0,
        days: new Map(),
        referrers: new Map(),
        devices: new Map(),
        countries: new Map(),
        dueAt: now + this.#lagMs - Math.floor(this.#lagMs * spreadOf(link.id)),
        since: now,
        bytes: FIGURES_BYTES,
        parts: [],
        journaled: 0,
        journaledIn: null,
      };
      this.#links.set(link.id, figures);
      this.#bytes += FIGURES_BYTES;
    }
    if (!figures.parts.includes(part)) figures.parts.push(part);
    return figures;
  }

  /** Adds `counted`'s clicks, bots and last use to `figures`, whose names took `bytes` more. */
  #counted(figures: WaitingFigures, counted: CountedLink, bytes: number): void {
    figures.clicks += counted.clicks;
    figures.bots += counted.bots;
    figures.lastUsedAt = Math.max(figures.lastUsedAt, counted.lastUsedAt);
    figures.bytes += bytes;
    this.#bytes += bytes;
  }

  /**
   * The clicks of link `id` this writer journaled and its record does not hold, given the
   * record's marks: a link's figures are written in one commit, which marks its last part.
   * Those of a journal taken over are another's to count (`OtherJournals`).
   */
  journaledClicks(id: string, folded: Readonly<Record<string, number>>): number {
    const waiting = this.#links.get(id);
    let clicks = waiting?.journaledIn
      ? unfolded(waiting.journaled, waiting.journaledIn, folded)
      : 0;
    for (const written of this.#writtenOf.get(id) ?? []) {
      clicks += unfolded(written.clicks, written.part, folded);
    }
    return clicks;
  }

  /**
   * The links to write at `now`, in the order of their ids (the order of their records in the
   * store): every one when `all`, else those due, and the longest waiting past the bound.
   */
  take(now: number, all = false): WaitingFigures[] {
    this.#clock = now;
    this.#forgetWritten(now - WRITTEN_KEPT_MS);
    const due: WaitingFigures[] = [];
    let over = this.#bytes - this.#maxBytes;
    for (const figures of this.#links.values()) {
      if (all || figures.dueAt <= now || over > 0) {
        due.push(figures);
        over -= figures.bytes;
      }
    }
    return due.sort((a, b) => a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  }

  /** Forgets `figures`, written (or dropped): the journal parts left with no link are spent. */
  done(figures: WaitingFigures): void {
    if (this.#links.get(figures.id) !== figures) return;
    this.#links.delete(figures.id);
    if (figures.journaled > 0 && figures.journaledIn !== null) {
      const written = {
        id: figures.id,
        clicks: figures.journaled,
        part: figures.journaledIn,
        at: this.#clock,
      };
      this.#written.push(written);
      const ofLink = this.#writtenOf.get(figures.id);
      if (ofLink === undefined) this.#writtenOf.set(figures.id, [written]);
      else ofLink.push(written);
    }
    this.#bytes -= figures.bytes;
    for (const part of figures.parts) this.spend(part, 1);
  }

  /** Forgets the clicks written before `before`. */
  #forgetWritten(before: number): void {
    let old = 0;
    while (old < this.#written.length && this.#written[old]!.at < before) {
      const { id } = this.#written[old++]!;
      const ofLink = this.#writtenOf.get(id)!;
      ofLink.shift();
      if (ofLink.length === 0) this.#writtenOf.delete(id);
    }
    if (old > 0) this.#written.splice(0, old);
  }

  /** Counts `links` of `part` as written; a part with none left is spent. */
  spend(part: JournalPart, links: number): void {
    part.left -= links;
    if (part.left <= 0) this.#spent.push(part.key);
  }

  /** The keys of the journal parts spent since the last call, to delete. */
  takeSpent(): Deno.KvKey[] {
    return this.#spent.splice(0);
  }

  /** Gives up every link: another writer took over the journal that holds them. */
  abandon(): void {
    for (const figures of this.#links.values()) figures.abandoned = true;
    this.#links.clear();
    this.#forgetWritten(Infinity);
    this.#bytes = 0;
  }

  /**
   * After `sequence` has settled: links whose figures a commit of unknown outcome carried are
   * forgotten when it landed, their ranked names gathered in `touched`, and written again
   * otherwise. Run before any visit is added, so none joins a commit that may have landed.
   */
  settle(sequence: CommitSequence, touched: Map<string, RankedName>): void {
    for (const figures of [...this.#links.values()]) {
      if (figures.uncertainAt === undefined) continue;
      if (sequence.landed(figures.uncertainAt)) {
        for (const name of rankedNamesOf(figures)) {
          touched.set(tallyNameKey(name.kind, name.name), name);
        }
        this.done(figures);
      } else {
        delete figures.uncertainAt;
      }
    }
  }
}

// How long the clicks of links written are kept for reads of records made before.
const WRITTEN_KEPT_MS = 10_000;

/** A link's clicks this writer journaled, written into its record at `at`. */
interface WrittenClicks {
  id: string;
  clicks: number;
  /** The last of this writer's parts that held them. */
  part: JournalPart;
  at: number;
}

/** `clicks` journaled up to `part`, unless a record with marks `folded` holds them. */
function unfolded(
  clicks: number,
  part: JournalPart,
  folded: Readonly<Record<string, number>>,
): number {
  return foldedIn(folded, part.writer, part.commit) ? 0 : clicks;
}

/** A share of the lag, from 0 to 1/2, that `id` is written sooner by. */
function spreadOf(id: string): number {
  let hash = 0;
  for (let i = id.length - 1; i >= Math.max(0, id.length - 6); i--) {
    hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  }
  return (hash % 1000) / 2000;
}

/** Adds `count` under `name`; the bytes a new name takes. */
function addTo(counts: Map<string, number>, name: string, count: number): number {
  return countUnder(counts, name, count) ? NAME_BYTES + name.length * 2 : 0;
}

/** Counts `link`'s visits into `figures`; the bytes their new names take. */
function countVisits(figures: WaitingFigures, link: LinkVisits): number {
  let bytes = link.clicks > 0 ? addTo(figures.days, link.day, link.clicks) : 0;
  const visits = link.visits;
  for (let i = 0; i < visits.length; i += VISIT_STRIDE) {
    const device = visits[i]!;
    bytes += addTo(figures.devices, device, 1);
    if (device === "bot") continue;
    bytes += addTo(figures.referrers, visits[i + 1]!, 1);
    bytes += addTo(figures.countries, visits[i + 2]!, 1);
  }
  return bytes;
}

/** Counts `deltas` into `figures`; the bytes their new names take. */
function countDeltas(figures: WaitingFigures, deltas: LinkDeltas): number {
  return addAll(figures.days, deltas.days) + addAll(figures.referrers, deltas.referrers) +
    addAll(figures.devices, deltas.devices) + addAll(figures.countries, deltas.countries);
}

function addAll(counts: Map<string, number>, more: Counts): number {
  let bytes = 0;
  for (let i = 0; i < more.length; i += 2) {
    bytes += addTo(counts, more[i] as string, more[i + 1] as number);
  }
  return bytes;
}

/** The figures by name, per ranked kind: referrers, devices, countries. */
export function breakdownsOf(
  figures: WaitingFigures,
): [kind: string, counts: Map<string, number>][] {
  return [[REFERRER_TALLY, figures.referrers], [DEVICE_TALLY, figures.devices], [
    COUNTRY_TALLY,
    figures.countries,
  ]];
}

/**
 * The ranked names `link`'s visits may have been counted under: a referrer past the link's
 * limit was counted as `other`, so that is one too.
 */
function rankedNamesOf(link: WaitingFigures): RankedName[] {
  const names: RankedName[] = [];
  for (const [kind, counts] of breakdownsOf(link)) {
    for (const name of counts.keys()) names.push({ kind, name });
  }
  if (link.referrers.size > 0) names.push({ kind: REFERRER_TALLY, name: OTHER_REFERRERS });
  return names;
}
