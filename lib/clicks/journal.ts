/**
 * The click journal: what a commit of clicks adds to its links' figures, their clicks included,
 * so a process killed before the slower cadence leaves its figures in the store for another to
 * fold, and other instances count its clicks (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import { clickJournalKey } from "../kv/keys.ts";
import { OTHER_REFERRERS } from "../tallies/shares.ts";
import {
  type Counts,
  countsOf,
  countUnder,
  deltasOf,
  type LinkDeltas,
  type LinkVisits,
  VISIT_STRIDE,
} from "./visits.ts";

/** How long a journal part is kept at most: a day, as a writer's key. */
export const JOURNAL_KEPT_MS = 86_400_000;

/** Estimated bytes one journal part holds at most, within the store's 64 KiB a value. */
export const PART_BYTES = 48 * 1024;

/** Estimated journal bytes one commit of clicks holds at most, well within a commit's 800 KiB. */
export const COMMIT_JOURNAL_BYTES = 256 * 1024;

/**
 * One part of a commit's journal, in memory: its key, and the links in it not yet folded into
 * their records. Deleted once none is left.
 */
export interface JournalPart {
  key: Deno.KvKey;
  /** The writer whose commit wrote it. */
  writer: string;
  /** The number of that commit in the writer's sequence. */
  commit: number;
  /** Links of the part whose figures are not yet written. */
  left: number;
}

/** A link's deltas ready for a journal part: its line there, and the bytes it takes. */
export interface JournalLine {
  deltas: LinkDeltas;
  /**
   * Tab-separated: the link's id, its last use (base 36), its day and its clicks of that day,
   * then its devices, referrers and countries, each names and counts in turn, space-separated.
   * No name holds a tab, space or line break: they are host names, device classes and codes.
   */
  text: string;
  bytes: number;
}

// What a line takes in a part beyond its characters: its line break, with room to spare.
const LINE_BYTES = 8;

/**
 * `deltas` as a journal line. A line past `most` bytes, {@linkcode PART_BYTES} unless told
 * (thousands of referring hosts in one second), counts its least frequent referrers as `other`,
 * as a link's record would past its limit, until it fits.
 */
export function journalLine(deltas: LinkDeltas, most = PART_BYTES): JournalLine {
  let line = lineOf(deltas);
  while (line.bytes > most && deltas.referrers.length > 2) {
    const pairs: [string, number][] = [];
    const referrers = deltas.referrers;
    for (let i = 0; i < referrers.length; i += 2) {
      pairs.push([referrers[i] as string, referrers[i + 1] as number]);
    }
    pairs.sort((a, b) => b[1] - a[1]);
    const kept = new Map(pairs.slice(0, Math.floor(pairs.length / 2)));
    for (const [, count] of pairs.slice(kept.size)) countUnder(kept, OTHER_REFERRERS, count);
    deltas.referrers = countsOf(kept);
    line = lineOf(deltas);
  }
  return line;
}

function lineOf(deltas: LinkDeltas): JournalLine {
  const day = deltas.days.length > 0 ? deltas.days[0] as string : "";
  const text = `${deltas.id}\t${deltas.lastUsedAt.toString(36)}\t${day}\t${deltas.clicks}\t` +
    `${deltas.devices.join(" ")}\t${deltas.referrers.join(" ")}\t${deltas.countries.join(" ")}`;
  return { deltas, text, bytes: text.length + LINE_BYTES };
}

/**
 * A chunk's journal lines (see {@linkcode JournalLine}), written as bytes one after another
 * straight from each link's visits: a line takes no object or string of its own, so nothing a
 * second's flush makes per link lives long enough to be promoted and collected with the old
 * generation (docs/benchmarks.md). Reused chunk after chunk.
 */
export class JournalLines {
  #bytes = new Uint8Array(16 * 1024);
  #at = 0;
  // Per line: where it ends (past its line break), its bytes as a part's estimate counts them
  // (see JournalLine), and whether it has a character past ASCII.
  #ends: number[] = [];
  #sizes: number[] = [];
  #wide: boolean[] = [];
  #count = 0;
  #estimate = 0;

  /** Lines written. */
  get size(): number {
    return this.#count;
  }

  /** The bytes the lines take stored, estimated generously. */
  get bytes(): number {
    return this.#estimate;
  }

  /** Forgets every line. */
  clear(): void {
    this.#at = 0;
    this.#count = 0;
    this.#estimate = 0;
  }

  /**
   * Adds `link`'s line. A line past {@linkcode PART_BYTES} is written again as
   * {@linkcode journalLine} cuts it down; then the deltas it wrote, which are what the link's
   * figures are to count, are returned.
   */
  add(link: LinkVisits): LinkDeltas | null {
    const start = this.#at;
    let wide = this.#line(link);
    // A character past ASCII may be past Latin-1 too, which has the store keep the whole part
    // at two bytes a character: such a line counts double.
    const most = wide ? PART_BYTES / 2 : PART_BYTES;
    let cut: LinkDeltas | null = null;
    if (this.#at - start + LINE_BYTES > most) {
      this.#at = start;
      const line = journalLine(deltasOf(link), most);
      wide = this.#text(line.text);
      cut = line.deltas;
    }
    const size = this.#at - start + LINE_BYTES;
    this.#byte(LINE_BREAK);
    this.#ends[this.#count] = this.#at;
    this.#sizes[this.#count] = size;
    this.#wide[this.#count] = wide;
    this.#count++;
    this.#estimate += wide ? 2 * size : size;
    return cut;
  }

  /**
   * Cuts the lines into parts of at most {@linkcode PART_BYTES} stored, a part with a character
   * past ASCII counted at two bytes each: each part's first line and the line past its last.
   */
  parts(): [from: number, to: number][] {
    const parts: [number, number][] = [];
    let from = 0;
    let bytes = 0;
    let wide = false;
    for (let i = 0; i < this.#count; i++) {
      const more = bytes + this.#sizes[i]!;
      const wider: boolean = wide || this.#wide[i]!;
      if (i > from && (wider ? 2 * more : more) > PART_BYTES) {
        parts.push([from, i]);
        from = i;
        bytes = this.#sizes[i]!;
        wide = this.#wide[i]!;
      } else {
        bytes = more;
        wide = wider;
      }
    }
    if (from < this.#count) parts.push([from, this.#count]);
    return parts;
  }

  /** Lines `from` up to `to` as one text, a line break between each two. */
  text(from: number, to: number): string {
    const start = from === 0 ? 0 : this.#ends[from - 1]!;
    return utf8Decoder.decode(this.#bytes.subarray(start, this.#ends[to - 1]! - 1));
  }

  /** Writes `link`'s line but its line break; whether a name was past ASCII. */
  #line(link: LinkVisits): boolean {
    let wide = this.#text(link.id);
    this.#byte(TAB);
    this.#number(link.lastUsedAt, 36);
    this.#byte(TAB);
    if (link.clicks > 0) wide = this.#text(link.day) || wide;
    this.#byte(TAB);
    this.#number(link.clicks, 10);
    const visits = link.visits;
    devices.clear();
    referrers.clear();
    countries.clear();
    for (let i = 0; i < visits.length; i += VISIT_STRIDE) {
      const device = visits[i]!;
      devices.add(device);
      if (device === "bot") continue;
      referrers.add(visits[i + 1]!);
      countries.add(visits[i + 2]!);
    }
    wide = this.#counts(devices) || wide;
    wide = this.#counts(referrers) || wide;
    return this.#counts(countries) || wide;
  }

  /** Writes a tab, then `counted`'s names and counts in turn; whether a name was past ASCII. */
  #counts(counted: NameCounts): boolean {
    let wide = false;
    this.#byte(TAB);
    for (let i = 0; i < counted.size; i++) {
      if (i > 0) this.#byte(SPACE);
      wide = this.#text(counted.names[i]!) || wide;
      this.#byte(SPACE);
      this.#number(counted.counts[i]!, 10);
    }
    return wide;
  }

  /** Writes `text`; whether it was past ASCII. */
  #text(text: string): boolean {
    this.#room(text.length * 3);
    const bytes = this.#bytes;
    let at = this.#at;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.#at = at + utf8Encoder.encodeInto(text.slice(i), bytes.subarray(at)).written;
        return true;
      }
      bytes[at++] = code;
    }
    this.#at = at;
    return false;
  }

  /** Writes a non-negative integer in `radix`. */
  #number(value: number, radix: number): void {
    this.#room(24);
    const start = this.#at;
    // Counts and times are whole and finite; anything else is written as 0, never as a text
    // that no reader takes.
    let left = Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
    do {
      const digit = left % radix;
      this.#bytes[this.#at++] = digit < 10 ? 48 + digit : 87 + digit;
      left = Math.floor(left / radix);
    } while (left > 0);
    for (let low = start, high = this.#at - 1; low < high; low++, high--) {
      const digit = this.#bytes[low]!;
      this.#bytes[low] = this.#bytes[high]!;
      this.#bytes[high] = digit;
    }
  }

  #byte(value: number): void {
    this.#room(1);
    this.#bytes[this.#at++] = value;
  }

  #room(bytes: number): void {
    if (this.#at + bytes <= this.#bytes.length) return;
    const larger = new Uint8Array(Math.max(this.#bytes.length * 2, this.#at + bytes));
    larger.set(this.#bytes.subarray(0, this.#at));
    this.#bytes = larger;
  }
}

const TAB = 9;
const LINE_BREAK = 10;
const SPACE = 32;
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Names counted in the order first seen, with no map made or cleared per link: a list searched
 * while short, as a link's names in a second mostly are, and a map past that.
 */
class NameCounts {
  names: string[] = [];
  counts: number[] = [];
  size = 0;
  #index: Map<string, number> | null = null;

  clear(): void {
    this.size = 0;
    this.#index = null;
  }

  add(name: string): void {
    const index = this.#index;
    if (index !== null) {
      const at = index.get(name);
      if (at !== undefined) this.counts[at]!++;
      else {
        index.set(name, this.size);
        this.#push(name);
      }
      return;
    }
    for (let i = 0; i < this.size; i++) {
      if (this.names[i] === name) {
        this.counts[i]!++;
        return;
      }
    }
    this.#push(name);
    if (this.size === SEARCHED_NAMES) {
      this.#index = new Map(this.names.slice(0, this.size).map((one, i) => [one, i]));
    }
  }

  #push(name: string): void {
    this.names[this.size] = name;
    this.counts[this.size] = 1;
    this.size++;
  }
}

// Names a list is searched for before a map takes over.
const SEARCHED_NAMES = 16;

// Counting lists used link after link (a line is written whole, synchronously).
const devices = new NameCounts();
const referrers = new NameCounts();
const countries = new NameCounts();

/**
 * The lines of `lines` in parts of at most {@linkcode PART_BYTES}, each set under its key of
 * commit `commit` on `atomic`; the parts, each told how many lines it holds, in order.
 */
export function addJournal(
  atomic: Deno.AtomicOperation,
  writer: string,
  commit: number,
  lines: JournalLines,
): { part: JournalPart; lines: number }[] {
  return lines.parts().map(([from, to], index) => {
    const key = clickJournalKey(writer, commit, index);
    atomic.set(key, lines.text(from, to), { expireIn: JOURNAL_KEPT_MS });
    return { part: { key, writer, commit, left: to - from }, lines: to - from };
  });
}

/**
 * A stored journal part read back as deltas, each with no slug or title (the journal keeps the
 * id alone); a line that does not read as deltas is left out.
 */
export function readJournal(value: unknown): LinkDeltas[] {
  if (typeof value !== "string") return [];
  const out: LinkDeltas[] = [];
  for (const line of value.split("\n")) {
    const read = readLine(line);
    if (read === null) continue;
    const [id, last, day, , devices, referrers, countries] = read.fields;
    const lastUsedAt = parseInt(last, 36);
    const deltas: LinkDeltas = {
      id,
      slug: "",
      title: "",
      clicks: read.clicks,
      bots: 0,
      lastUsedAt: Number.isSafeInteger(lastUsedAt) ? lastUsedAt : 0,
      days: read.clicks === 0 ? [] : [day, read.clicks],
      devices: readCounts(devices),
      referrers: readCounts(referrers),
      countries: readCounts(countries),
    };
    for (let i = 0; i < deltas.devices.length; i += 2) {
      if (deltas.devices[i] === "bot") deltas.bots += deltas.devices[i + 1] as number;
    }
    out.push(deltas);
  }
  return out;
}

/**
 * The clicks by people of each link in a stored journal part, as {@linkcode readJournal} reads
 * them, without the rest of its figures: ids and counts in turn, links with none left out.
 */
export function readJournalClicks(value: unknown): (string | number)[] {
  if (typeof value !== "string") return [];
  const out: (string | number)[] = [];
  for (const line of value.split("\n")) {
    const read = readLine(line);
    if (read !== null && read.clicks > 0) out.push(read.fields[0], read.clicks);
  }
  return out;
}

type LineFields = [string, string, string, string, string, string, string];

/**
 * A journal line's seven fields (see {@linkcode JournalLine}) and its clicks by people, or `null`
 * for a line that does not read as a link's deltas: no id, or a count that is not one.
 */
function readLine(line: string): { fields: LineFields; clicks: number } | null {
  const fields = line.split("\t");
  if (fields.length !== 7 || fields[0] === "") return null;
  const dayClicks = Number(fields[3]);
  if (!Number.isSafeInteger(dayClicks) || dayClicks < 0) return null;
  return { fields: fields as LineFields, clicks: fields[2] === "" ? 0 : dayClicks };
}

/** Whether a link's record with marks `folded` holds commit `commit` of `writer`'s journal. */
export function foldedIn(
  folded: Readonly<Record<string, number>>,
  writer: string,
  commit: number,
): boolean {
  return (folded[writer] ?? 0) >= commit;
}

/** Counts stored as names and counts in turn, leaving out a pair that is not a name and a count. */
function readCounts(stored: string): Counts {
  const counts: Counts = [];
  const words = stored === "" ? [] : stored.split(" ");
  for (let i = 0; i + 1 < words.length; i += 2) {
    const count = Number(words[i + 1]);
    if (words[i] !== "" && Number.isSafeInteger(count) && count > 0) counts.push(words[i]!, count);
  }
  return counts;
}

// Deletes a commit takes at most, well within the store's 1,000 mutations and 80 KiB of keys.
const DELETES_PER_COMMIT = 500;

/**
 * Deletes the journal parts `keys`, spent: every link of theirs is folded into its record (or
 * gone), so deleting one twice, or after another writer took it over, changes no figure.
 */
export async function deleteParts(kv: Deno.Kv, keys: Deno.KvKey[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETES_PER_COMMIT) {
    const atomic = kv.atomic();
    for (const key of keys.slice(i, i + DELETES_PER_COMMIT)) atomic.delete(key);
    await atomic.commit();
  }
}
