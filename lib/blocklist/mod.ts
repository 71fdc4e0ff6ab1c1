/**
 * The operator's blocklist of destination hosts (`BLOCKED_HOSTS_FILE`): a name blocks itself and
 * every subdomain. Links to a blocked host cannot be made, and those made before stop working.
 * @module
 */
import { bareHostName } from "../ip/mod.ts";

/** A host name as a blocklist line may give it: labels of letters, digits, `-` and `_`. */
const HOST_NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

/** What a blocklist file says: the names it blocks, and the lines that name no host. */
export interface ParsedBlocklist {
  names: string[];
  /** Lines (trimmed) that are neither a host name, a comment nor blank. */
  unreadable: string[];
}

/**
 * Reads a blocklist file's text: one host name a line; `#` starts a comment, on its own line or
 * after a name; blank lines are skipped. Names are compared without case, a trailing dot or a
 * leading `*.` (a name blocks its subdomains anyway). An IP address is blocked as itself.
 */
export function parseBlocklist(text: string): ParsedBlocklist {
  const names: string[] = [];
  const unreadable: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const name = bareHostName(line).replace(/^\*\./, "");
    if (HOST_NAME.test(name) || isIpv6(name)) names.push(name);
    else unreadable.push(line);
  }
  return { names, unreadable };
}

/** The hosts blocked now; replaced whole when the file changes. */
export class HostBlocklist {
  #names = new Set<string>();

  /** Starts with `names` blocked (default none). */
  constructor(names: Iterable<string> = []) {
    this.replace(names);
  }

  /** Names blocked. */
  get size(): number {
    return this.#names.size;
  }

  /** Blocks exactly `names` from now on. */
  replace(names: Iterable<string>): void {
    this.#names = new Set([...names].map((name) => bareHostName(name)));
  }

  /** Whether `hostname` (as `URL` spells it) is a blocked name or a subdomain of one. */
  blocks(hostname: string): boolean {
    const names = this.#names;
    if (names.size === 0) return false;
    const name = bareHostName(hostname);
    if (names.has(name)) return true;
    // An address is blocked as itself only: `2.3.4` is no parent of `1.2.3.4`.
    if (/^[\d.]+$/.test(name) || name.includes(":")) return false;
    for (let dot = name.indexOf("."); dot >= 0; dot = name.indexOf(".", dot + 1)) {
      if (names.has(name.slice(dot + 1))) return true;
    }
    return false;
  }

  /**
   * Whether the stored destination `url` (`http(s)://host[:port]/...`, as links keep it) is on
   * a blocked host. With nothing blocked, one comparison: the redirect asks it on every visit.
   */
  blocksUrl(url: string): boolean {
    if (this.#names.size === 0) return false;
    return this.blocks(hostOfStored(url));
  }
}

/** The host of a stored destination, read without parsing the URL. */
function hostOfStored(url: string): string {
  const start = url.indexOf("//") + 2;
  let end = start;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 47 || c === 63 || c === 35) break; // `/`, `?`, `#`
    end++;
  }
  const authority = url.slice(start, end);
  if (authority.startsWith("[")) return authority.slice(0, authority.indexOf("]") + 1);
  const colon = authority.lastIndexOf(":");
  return colon < 0 ? authority : authority.slice(0, colon);
}

function isIpv6(name: string): boolean {
  return /^[0-9a-f:.]+$/.test(name) && name.includes(":");
}
