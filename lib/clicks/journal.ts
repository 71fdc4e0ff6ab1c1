/**
 * The click journal: what a commit of clicks adds to its links' figures, their clicks included,
 * so a process killed before the slower cadence leaves its figures in the store for another to
 * fold, and other instances count its clicks (docs/decisions/2026-11-28-click-layout.md).
 * @module
 */
import { clickJournalKey } from "../kv/keys.ts";
import { OTHER_REFERRERS } from "../tallies/shares.ts";
import { type Counts, countsOf, countUnder, type LinkDeltas } from "./visits.ts";

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
 * `deltas` as a journal line. A line past {@linkcode PART_BYTES} (thousands of referring hosts
 * in one second) counts its least frequent referrers as `other`, as a link's record would past
 * its limit, until it fits.
 */
export function journalLine(deltas: LinkDeltas): JournalLine {
  let line = lineOf(deltas);
  while (line.bytes > PART_BYTES && deltas.referrers.length > 2) {
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
 * Lines in parts of at most {@linkcode PART_BYTES}, each set under its key of commit `commit`
 * on `atomic`; the parts, each told its links.
 */
export function addJournal(
  atomic: Deno.AtomicOperation,
  writer: string,
  commit: number,
  lines: JournalLine[],
): { part: JournalPart; lines: JournalLine[] }[] {
  const parts: { part: JournalPart; lines: JournalLine[] }[] = [];
  let current: JournalLine[] = [];
  let bytes = 0;
  const close = () => {
    if (current.length === 0) return;
    const key = clickJournalKey(writer, commit, parts.length);
    atomic.set(key, current.map((line) => line.text).join("\n"), { expireIn: JOURNAL_KEPT_MS });
    parts.push({ part: { key, writer, commit, left: current.length }, lines: current });
    current = [];
    bytes = 0;
  };
  for (const line of lines) {
    if (bytes + line.bytes > PART_BYTES) close();
    current.push(line);
    bytes += line.bytes;
  }
  close();
  return parts;
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
