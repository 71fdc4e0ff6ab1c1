/**
 * IP addresses in their one spelling: what a client, a destination or a preview target is
 * compared and counted by, whatever form it was written in.
 * @module
 */
import ipaddr from "ipaddr.js";

/** A host name without brackets, case or trailing dots, as it is compared and sent in SNI. */
export function bareHostName(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.+$/, "").toLowerCase();
}

// Digits, hex digits, `x` (0x7f.1), dots and colons, in brackets or not.
const ADDRESS_CHARACTERS = /^\[?[0-9A-Fa-fXx.:]+\]?$/;

/**
 * `address` in the URL standard's serialization (dotted decimal, or compressed hex IPv6), or
 * `null` when it is not an IP address (zone identifiers included). ipaddr.js reads `::a.b.c.d` as
 * IPv4-mapped, so the text goes through the URL parser first.
 */
export function canonicalAddress(address: string): string | null {
  // Only what an address can be written with: the URL parser would also take `a@1.2.3.4`.
  if (!ADDRESS_CHARACTERS.test(address)) return null;
  const bare = bareHostName(address);
  let hostname: string;
  try {
    hostname = new URL(`http://${bare.includes(":") ? `[${bare}]` : bare}/`).hostname;
  } catch {
    return null;
  }
  const inner = bareHostName(hostname);
  if (hostname.startsWith("[")) return ipaddr.IPv6.isValid(inner) ? inner : null;
  return ipaddr.IPv4.isValidFourPartDecimal(inner) ? inner : null;
}

/**
 * `address` as {@linkcode canonicalAddress} spells it, an IPv4-mapped IPv6 address
 * (`::ffff:a.b.c.d`) as the IPv4 address it names; `null` when it is not an IP address. A
 * plain literal (see {@linkcode readPlainAddress}) is read directly, with no allocation but
 * the answer's; any other spelling goes through the URL parser.
 */
export function plainAddress(address: string): string | null {
  const read = readAddress(address, scratch);
  // An address already in its one spelling is the answer itself: nothing is made.
  if (read & AS_SPELLED) return address;
  if (read === 4) return ipv4Text(scratch);
  if (read === 6) return ipv6Text(scratch);
  const canonical = canonicalAddress(address);
  if (canonical === null || !canonical.includes(":")) return canonical;
  const parsed = ipaddr.IPv6.parse(canonical);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : canonical;
}

const scratch = new Uint16Array(8);

/**
 * Reads a plain IP literal into `pieces`, its eight 16-bit pieces (an IPv4 address as the
 * IPv4-mapped IPv6 one, in the last two): `4` for an IPv4 address or an IPv4-mapped IPv6 one,
 * `6` for any other IPv6 address, `0` for anything else. Plain is dotted decimal without leading
 * zeros, or hex pieces (either case) with at most one `::` and an optional dotted-decimal tail,
 * either in brackets or not: the spellings clients and proxies write. A `0` answer says only
 * that the text is not plain; it may still be an address in another spelling (`0x7f.1`).
 */
export function readPlainAddress(text: string, pieces: Uint16Array): 0 | 4 | 6 {
  return (readAddress(text, pieces) & 7) as 0 | 4 | 6;
}

// A bit of `readAddress`'s answer: the text is the address's one spelling already.
const AS_SPELLED = 8;

/** {@linkcode readPlainAddress}'s answer, with {@linkcode AS_SPELLED} when it applies. */
function readAddress(text: string, pieces: Uint16Array): number {
  let start = 0;
  let end = text.length;
  if (end > 0 && text.charCodeAt(0) === OPEN) {
    if (text.charCodeAt(end - 1) !== CLOSE) return 0;
    start = 1;
    end--;
  }
  if (end - start > 45) return 0; // longer than any plain IPv6 literal
  if (text.indexOf(":", start) === -1) {
    if (!readIPv4(text, start, end, pieces, 6)) return 0;
    for (let i = 0; i < 5; i++) pieces[i] = 0;
    pieces[5] = 0xffff;
    return start === 0 ? 4 | AS_SPELLED : 4;
  }
  const read = readIPv6(text, start, end, pieces);
  if (read === 0) return 0;
  if (isMapped(pieces)) return 4;
  return read === 2 && start === 0 ? 6 | AS_SPELLED : 6;
}

const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const COLON = 0x3a;
const DOT = 0x2e;
const ZERO = 0x30;

/**
 * Dotted decimal from `start` to `end` into `pieces` at `at` and `at + 1`; false when it is not
 * plain. Parts go in as 16-bit halves, so no number here outgrows a small integer.
 */
function readIPv4(
  text: string,
  start: number,
  end: number,
  pieces: Uint16Array,
  at: number,
): boolean {
  let half = 0;
  let i = start;
  for (let parts = 0; parts < 4; parts++) {
    if (parts > 0) {
      if (i >= end || text.charCodeAt(i) !== DOT) return false;
      i++;
    }
    let part = 0;
    const first = i;
    while (i < end) {
      const digit = text.charCodeAt(i) - ZERO;
      if (digit < 0 || digit > 9) break;
      part = part * 10 + digit;
      if (part > 255) return false;
      i++;
    }
    // No digits, or a leading zero (which the URL parser reads as octal).
    if (i === first || (i - first > 1 && text.charCodeAt(first) === ZERO)) return false;
    half = half * 256 + part;
    if (parts === 1) {
      pieces[at] = half;
      half = 0;
    }
  }
  pieces[at + 1] = half;
  return i === end;
}

/**
 * Hex pieces from `start` to `end` into `pieces`: 0 when they are not a plain IPv6 literal, 2
 * when they are spelled as the URL standard writes the address (lower case, no leading zeros, no
 * dotted tail, the first longest run of two zero pieces or more as `::`), else 1.
 */
function readIPv6(text: string, start: number, end: number, pieces: Uint16Array): number {
  let count = 0;
  let gap = -1; // where `::` stands, as a piece index
  let spelled = true;
  let i = start;
  if (text.charCodeAt(i) === COLON) {
    if (i + 1 >= end || text.charCodeAt(i + 1) !== COLON) return 0;
    gap = 0;
    i += 2;
  }
  while (i < end) {
    if (count === 8) return 0;
    let value = 0;
    let j = i;
    while (j < end && j - i < 5) {
      const code = text.charCodeAt(j);
      let digit = code - ZERO;
      if (digit < 0 || digit > 9) {
        const lower = code | 0x20;
        if (lower < 0x61 || lower > 0x66) break;
        if (code !== lower) spelled = false;
        digit = lower - 0x57;
      }
      value = value * 16 + digit;
      j++;
    }
    if (j < end && text.charCodeAt(j) === DOT) {
      // A dotted-decimal tail: the last two pieces.
      if (count > 6 || !readIPv4(text, i, end, pieces, count)) return 0;
      count += 2;
      spelled = false;
      break;
    }
    if (j === i || j - i > 4) return 0;
    if (j - i > 1 && text.charCodeAt(i) === ZERO) spelled = false;
    pieces[count++] = value;
    i = j;
    if (i === end) break;
    if (text.charCodeAt(i) !== COLON || ++i === end) return 0;
    if (text.charCodeAt(i) === COLON) {
      if (gap !== -1) return 0;
      gap = count;
      i++;
    }
  }
  if (gap === -1) {
    if (count !== 8) return 0;
  } else {
    // `::` stands for one zero piece at least.
    if (count > 7) return 0;
    const moved = count - gap;
    for (let k = 1; k <= moved; k++) pieces[8 - k] = pieces[count - k]!;
    for (let k = gap; k < 8 - moved; k++) pieces[k] = 0;
  }
  if (!spelled) return 1;
  const run = longestZeros(pieces);
  // A `::` for a single zero piece is written `0`.
  return run === (gap === -1 ? -1 : gap * 16 + 8 - count) ? 2 : 1;
}

/**
 * Where the first longest run of two zero pieces or more starts, times 16, plus its length; -1
 * when there is none.
 */
function longestZeros(pieces: Uint16Array): number {
  let runStart = -1;
  let runLength = 1;
  for (let i = 0; i < 8;) {
    if (pieces[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && pieces[j] === 0) j++;
    if (j - i > runLength) {
      runStart = i;
      runLength = j - i;
    }
    i = j;
  }
  return runStart === -1 ? -1 : runStart * 16 + runLength;
}

function isMapped(pieces: Uint16Array): boolean {
  return pieces[0] === 0 && pieces[1] === 0 && pieces[2] === 0 && pieces[3] === 0 &&
    pieces[4] === 0 && pieces[5] === 0xffff;
}

function ipv4Text(pieces: Uint16Array): string {
  const high = pieces[6]!;
  const low = pieces[7]!;
  return `${high >>> 8}.${high & 0xff}.${low >>> 8}.${low & 0xff}`;
}

/** The URL standard's serialization: lower-case hex, the first longest run of zeros as `::`. */
function ipv6Text(pieces: Uint16Array): string {
  const run = longestZeros(pieces);
  const runStart = run === -1 ? -1 : run >> 4;
  const runLength = run & 15;
  let text = "";
  for (let i = 0; i < 8; i++) {
    if (i === runStart) {
      text += i === 0 ? "::" : ":";
      i += runLength - 1;
      continue;
    }
    text += pieces[i]!.toString(16);
    if (i < 7) text += ":";
  }
  return text;
}

/**
 * The network one party holds around `address`, for counting guesses: an IPv4 address alone,
 * the /64 of an IPv6 one (a single host is given a whole /64). Anything that is not an address
 * is its own group.
 */
export function addressGroup(address: string): string {
  const plain = plainAddress(address);
  if (plain === null) return address;
  if (readPlainAddress(plain, scratch) !== 6) return plain;
  const [a, b, c, d] = scratch;
  return `${a!.toString(16)}:${b!.toString(16)}:${c!.toString(16)}:${d!.toString(16)}::/64`;
}
