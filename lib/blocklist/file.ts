/**
 * Keeping a {@linkcode HostBlocklist} in step with its file: read at start, then looked at every
 * couple of seconds (its size, time and inode, which also catch a file replaced by a rename) and
 * read again when it changed. Polling, not a file-system watch: it works on every file system and
 * survives the file being replaced, and a blocked host must stop within 10 s, not at once.
 * @module
 */
import { type HostBlocklist, parseBlocklist } from "./mod.ts";

/** Options of {@linkcode watchBlocklistFile}. */
export interface BlocklistFileOptions {
  /** How often the file is looked at, in ms; default 2,000. */
  intervalMs?: number;
  /** Told each time the file was read (at start too): the names blocked, and lines skipped. */
  onRead?: (read: { names: number; unreadable: string[] }) => void;
  /** Told when the file cannot be read (the last list read holds), and when it can again. */
  onFault?: (error: Error | null) => void;
}

/** The file could not be read at start. */
export class BlocklistFileError extends Error {
  constructor(readonly path: string, reason: string, options?: ErrorOptions) {
    super(`cannot read ${path}: ${reason}`, options);
    this.name = "BlocklistFileError";
  }
}

/**
 * Reads the blocklist at `path` into `list`, then reads it again whenever it changes, until the
 * returned function is called. Throws {@linkcode BlocklistFileError} when it cannot be read now.
 */
export async function watchBlocklistFile(
  list: HostBlocklist,
  path: string,
  options: BlocklistFileOptions = {},
): Promise<() => void> {
  let seen: string;
  try {
    seen = stamp(await Deno.stat(path));
    load(list, await Deno.readTextFile(path), options);
  } catch (error) {
    const reason = error instanceof Error
      ? error.message.replace(/ \(os error \d+\).*$/, "").replace(/:.*$/, "").toLowerCase()
      : String(error);
    throw new BlocklistFileError(path, reason, { cause: error });
  }
  let busy = false;
  let failing = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const now = stamp(await Deno.stat(path));
      if (now !== seen) {
        load(list, await Deno.readTextFile(path), options);
        seen = now;
      }
      if (failing) options.onFault?.(null);
      failing = false;
    } catch (error) {
      failing = true;
      options.onFault?.(error instanceof Error ? error : new Error(String(error)));
    } finally {
      busy = false;
    }
  }, options.intervalMs ?? 2_000);
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}

function load(list: HostBlocklist, text: string, options: BlocklistFileOptions): void {
  const parsed = parseBlocklist(text);
  list.replace(parsed.names);
  options.onRead?.({ names: parsed.names.length, unreadable: parsed.unreadable });
}

/** What tells one version of the file from another. */
function stamp(info: Deno.FileInfo): string {
  return `${info.ino}:${info.size}:${info.mtime?.getTime()}`;
}
