/**
 * Country of an address from the offline `geoip-country` database, loaded on first use so
 * start-up stays fast and a process that never flushes a click never pays its memory.
 *
 * The package ships its database as two files of address ranges, each a start, an end and a
 * two-letter code, sorted. They are read once into typed arrays and searched by bisection: a
 * lookup allocates nothing, so no address needs a cache. The package's own `lookup` answers the
 * same (`geoip_test.ts`) but builds an object of country facts a call and parses IPv6 through
 * `BigInt`; it is kept as the fallback should the files not read as expected.
 * @module
 */
import { readPlainAddress } from "../ip/mod.ts";
import { TimeSlices } from "../pause.ts";
import type { CountryLookup } from "./classify.ts";

/** Bytes of an IPv4 range in the package's data: start and end (32 bits each), the code. */
export const IPV4_RECORD = 10;
/** Bytes of an IPv6 range: start and end of its first 64 bits (64 bits each), the code. */
export const IPV6_RECORD = 18;

/**
 * The database as typed arrays: for each range, its first and last address and the index of
 * its country code. IPv6 ranges are of the first 64 bits, each as two 32-bit halves.
 */
export class CountryTable {
  #names: string[] = [];
  #first4 = new Uint32Array(0);
  #last4 = new Uint32Array(0);
  #code4 = new Uint8Array(0);
  #firstHigh6 = new Uint32Array(0);
  #firstLow6 = new Uint32Array(0);
  #lastHigh6 = new Uint32Array(0);
  #lastLow6 = new Uint32Array(0);
  #code6 = new Uint8Array(0);
  // For each first 16 bits of an IPv4 address, the first range that starts at or after them: a
  // bisection starts within the few ranges of those bits.
  #block4 = new Uint32Array(0);
  // The first address of every SAMPLE-th IPv6 range: a bisection starts in these kilobytes,
  // which stay in the processor's caches, and ends within SAMPLE ranges.
  #sampleHigh6 = new Uint32Array(0);
  #sampleLow6 = new Uint32Array(0);
  #pieces = new Uint16Array(8);

  private constructor() {}

  /**
   * Reads the package's two data files, a few ms at a time between turns of the event loop (the
   * whole takes some 40 ms here); rejects when they are not sorted ranges of two upper-case letters
   * each, so a database of another layout is never misread.
   */
  static async read(ipv4: Uint8Array, ipv6: Uint8Array): Promise<CountryTable> {
    const table = new CountryTable();
    const names = table.#names;
    const slots = new Int16Array(26 * 26).fill(-1);
    const codeOf = (data: DataView, at: number) => {
      const a = data.getUint8(at) - 65;
      const b = data.getUint8(at + 1) - 65;
      if (a < 0 || a > 25 || b < 0 || b > 25) throw new Error(`no country code at ${at}`);
      let index = slots[a * 26 + b]!;
      if (index === -1) {
        if (names.length === 256) throw new Error("more than 256 country codes");
        slots[a * 26 + b] = index = names.length;
        names.push(String.fromCharCode(a + 65, b + 65));
      }
      return index;
    };
    const v4 = records(ipv4, IPV4_RECORD);
    const first4 = table.#first4 = new Uint32Array(v4.count);
    const last4 = table.#last4 = new Uint32Array(v4.count);
    const code4 = table.#code4 = new Uint8Array(v4.count);
    await inSlices(v4.count, (i) => {
      const at = i * IPV4_RECORD;
      const first = v4.data.getUint32(at);
      const last = v4.data.getUint32(at + 4);
      if (last < first || (i > 0 && first <= last4[i - 1]!)) {
        throw new Error(`IPv4 range ${i} is out of order`);
      }
      first4[i] = first;
      last4[i] = last;
      code4[i] = codeOf(v4.data, at + 8);
    });
    const v6 = records(ipv6, IPV6_RECORD);
    const firstHigh6 = table.#firstHigh6 = new Uint32Array(v6.count);
    const firstLow6 = table.#firstLow6 = new Uint32Array(v6.count);
    const lastHigh6 = table.#lastHigh6 = new Uint32Array(v6.count);
    const lastLow6 = table.#lastLow6 = new Uint32Array(v6.count);
    const code6 = table.#code6 = new Uint8Array(v6.count);
    await inSlices(v6.count, (i) => {
      const at = i * IPV6_RECORD;
      const firstHigh = v6.data.getUint32(at);
      const firstLow = v6.data.getUint32(at + 4);
      const lastHigh = v6.data.getUint32(at + 8);
      const lastLow = v6.data.getUint32(at + 12);
      if (
        below(lastHigh, lastLow, firstHigh, firstLow) ||
        (i > 0 && !below(lastHigh6[i - 1]!, lastLow6[i - 1]!, firstHigh, firstLow))
      ) {
        throw new Error(`IPv6 range ${i} is out of order`);
      }
      firstHigh6[i] = firstHigh;
      firstLow6[i] = firstLow;
      lastHigh6[i] = lastHigh;
      lastLow6[i] = lastLow;
      code6[i] = codeOf(v6.data, at + 16);
    });
    table.#block4 = blocks(first4);
    table.#sampleHigh6 = sampled(firstHigh6);
    table.#sampleLow6 = sampled(firstLow6);
    return table;
  }

  /** Ranges of IPv4 and of IPv6 addresses. */
  get size(): { ipv4: number; ipv6: number } {
    return { ipv4: this.#first4.length, ipv6: this.#firstHigh6.length };
  }

  /**
   * The country code of a plain IP literal (`readPlainAddress`; an IPv4-mapped address as its
   * IPv4 address), or `null`: not in the database, or not a plain literal.
   */
  lookup(address: string): string | null {
    const pieces = this.#pieces;
    const kind = readPlainAddress(address, pieces);
    if (kind === 4) return this.#lookup4(pieces[6]!, pieces[7]!);
    if (kind === 6) {
      return this.#lookup6(pieces[0]! * 0x10000 + pieces[1]!, pieces[2]! * 0x10000 + pieces[3]!);
    }
    return null;
  }

  #lookup4(high: number, low: number): string | null {
    const address = high * 0x10000 + low;
    const first = this.#first4;
    // The last range that starts at or before the address.
    let start = this.#block4[high]!;
    let end = this.#block4[high + 1]!;
    while (start < end) {
      const mid = (start + end) >>> 1;
      if (first[mid]! <= address) start = mid + 1;
      else end = mid;
    }
    const i = start - 1;
    if (i < 0 || address > this.#last4[i]!) return null;
    return this.#names[this.#code4[i]!]!;
  }

  #lookup6(high: number, low: number): string | null {
    const sampleHigh = this.#sampleHigh6;
    const sampleLow = this.#sampleLow6;
    let start = 0;
    let end = sampleHigh.length;
    while (start < end) {
      const mid = (start + end) >>> 1;
      if (!below(high, low, sampleHigh[mid]!, sampleLow[mid]!)) start = mid + 1;
      else end = mid;
    }
    if (start === 0) return null;
    const firstHigh = this.#firstHigh6;
    const firstLow = this.#firstLow6;
    end = Math.min(firstHigh.length, start * SAMPLE);
    start = (start - 1) * SAMPLE;
    while (start < end) {
      const mid = (start + end) >>> 1;
      if (!below(high, low, firstHigh[mid]!, firstLow[mid]!)) start = mid + 1;
      else end = mid;
    }
    const i = start - 1;
    if (below(this.#lastHigh6[i]!, this.#lastLow6[i]!, high, low)) return null;
    return this.#names[this.#code6[i]!]!;
  }
}

// Ranges a sample stands for.
const SAMPLE = 16;

/** For each 16-bit prefix and the one past the last, the first range at or after it. */
function blocks(firsts: Uint32Array): Uint32Array<ArrayBuffer> {
  const block = new Uint32Array(0x10001);
  let i = 0;
  for (let prefix = 0; prefix <= 0x10000; prefix++) {
    while (i < firsts.length && firsts[i]! < prefix * 0x10000) i++;
    block[prefix] = i;
  }
  return block;
}

function sampled(firsts: Uint32Array): Uint32Array<ArrayBuffer> {
  const sample = new Uint32Array(Math.ceil(firsts.length / SAMPLE));
  for (let k = 0; k < sample.length; k++) sample[k] = firsts[k * SAMPLE]!;
  return sample;
}

/** Whether the 64-bit number `aHigh:aLow` is below `bHigh:bLow`. */
function below(aHigh: number, aLow: number, bHigh: number, bLow: number): boolean {
  return aHigh < bHigh || (aHigh === bHigh && aLow < bLow);
}

/** Calls `each` for 0 to `count`, letting the event loop run what waits every few ms. */
async function inSlices(count: number, each: (i: number) => void): Promise<void> {
  const slices = new TimeSlices();
  for (let i = 0; i < count; i++) {
    each(i);
    if ((i & 0xfff) === 0xfff && slices.over) await slices.yield();
  }
}

function records(bytes: Uint8Array, size: number): { data: DataView; count: number } {
  if (bytes.length === 0 || bytes.length % size !== 0) {
    throw new Error(`${bytes.length} bytes are no whole number of ${size}-byte ranges`);
  }
  return {
    data: new DataView(bytes.buffer, bytes.byteOffset, bytes.length),
    count: bytes.length / size,
  };
}

/** The package's data files, beside its main module. */
function dataFile(name: string): URL {
  return new URL(`../data/${name}`, import.meta.resolve("geoip-country"));
}

let table: Promise<CountryLookup> | null = null;

/**
 * A lookup backed by `geoip-country`, loaded once: its data files as a {@linkcode CountryTable},
 * or the package's own `lookup` when they cannot be read so.
 */
export function loadGeoipLookup(): Promise<CountryLookup> {
  table ??= loadCountryTable().then(
    (loaded): CountryLookup => (address) => loaded.lookup(address),
    () => packageLookup(),
  );
  table.catch(() => {
    table = null; // a failed load is tried again by the next call
  });
  return table;
}

/** The database's files read into a {@linkcode CountryTable}. */
export async function loadCountryTable(
  files: { ipv4: URL | string; ipv6: URL | string } = {
    ipv4: dataFile("geoip-country.dat"),
    ipv6: dataFile("geoip-country6.dat"),
  },
): Promise<CountryTable> {
  const [ipv4, ipv6] = await Promise.all([Deno.readFile(files.ipv4), Deno.readFile(files.ipv6)]);
  return await CountryTable.read(ipv4, ipv6);
}

/** The package's own lookup. */
export async function packageLookup(): Promise<CountryLookup> {
  const geoip: { lookup(address: string): { country: string } | null } =
    (await import("geoip-country")).default;
  return (address) => geoip.lookup(address)?.country ?? null;
}
