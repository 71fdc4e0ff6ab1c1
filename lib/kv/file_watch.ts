/**
 * Watching a local store's file: a store whose file vanishes (its folder deleted, say) must not
 * go on acknowledging writes that a restart would find gone. The store is marked down, so every
 * call answers 503, until a file is at the path again, which is then opened and used.
 * @module
 */
import type { KvSlot } from "./guard.ts";

/** Options of {@linkcode watchStoreFile}. */
export interface FileWatchOptions {
  /** How often the file is looked at, in ms; default 1,000. */
  intervalMs?: number;
  /** Opens the store at a path; default `Deno.openKv`. */
  open?: (path: string) => Promise<Deno.Kv>;
  /** Told when the file is found gone (`false`), and when a file at the path is opened (`true`). */
  onChange?: (up: boolean) => void;
}

/**
 * Looks at the file at `path` every `intervalMs`: when it is gone, `slot` is marked down; when a
 * file is there again (after it was gone, or a different one from the file the store opened), it
 * is opened, put in the slot, and the store is up again. Returns a function that stops watching.
 */
export function watchStoreFile(
  slot: KvSlot,
  path: string,
  options: FileWatchOptions = {},
): () => void {
  const open = options.open ?? ((at: string) => Deno.openKv(at));
  let inode = inodeOf(path);
  if (inode === null || inode === undefined) return () => {};
  // Once the file has been gone, whatever file is back is opened, even under the same inode:
  // the same file, moved away and back.
  let vanished = false;
  return tendSlot(slot, options.intervalMs ?? 1000, async (stopped) => {
    const now = inodeOf(path);
    if (now === undefined) return false; // not known this time: looked at again next time
    if (now === null) {
      slot.down ??= new Error(`the store's file ${path} is gone`);
      if (!vanished) options.onChange?.(false);
      vanished = true;
    } else if ((vanished || now !== inode) && await openInto(slot, () => open(path), stopped)) {
      inode = now;
      vanished = false;
      options.onChange?.(true);
    }
    return false;
  });
}

/**
 * Runs `tend` every `intervalMs`, one run at a time (a tick that finds one under way is
 * skipped). A run that throws marks `slot` down with its error; one that answers `true` is the
 * last. Returns a function that stops it; a run under way then sees `stopped()` true.
 */
export function tendSlot(
  slot: KvSlot,
  intervalMs: number,
  tend: (stopped: () => boolean) => Promise<boolean>,
): () => void {
  let busy = false;
  let stopped = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      if (await tend(() => stopped)) clearInterval(timer);
    } catch (error) {
      slot.down = error instanceof Error ? error : new Error(String(error));
    } finally {
      busy = false;
    }
  }, intervalMs);
  Deno.unrefTimer(timer);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * Opens a store with `open` and puts it in `slot`, up, closing the one it replaces. When
 * `stopped()` says the slot was closed while it opened, the new store is closed instead, and
 * the answer is `false`.
 */
export async function openInto(
  slot: KvSlot,
  open: () => Promise<Deno.Kv>,
  stopped: () => boolean,
): Promise<boolean> {
  const kv = await open();
  if (stopped()) {
    kv.close();
    return false;
  }
  const replaced = slot.kv;
  slot.kv = kv;
  slot.down = null;
  try {
    replaced.close();
  } catch {
    // closed already
  }
  return true;
}

/** The inode of the file at `path`; `null` when none is there, `undefined` when unknown. */
function inodeOf(path: string): number | null | undefined {
  try {
    return Deno.statSync(path).ino;
  } catch (error) {
    const gone = error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory;
    return gone ? null : undefined;
  }
}
