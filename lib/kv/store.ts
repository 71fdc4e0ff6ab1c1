/**
 * The store handle every domain function takes: the KV database, the clock and the link lifetime.
 * @module
 */
import { openInto, watchStoreFile } from "./file_watch.ts";
import { guardKv, guardSlot, type KvSlot } from "./guard.ts";

/** What every store operation needs; tests build one over `:memory:` KV and a fake clock. */
export interface Store {
  /** The KV database, guarded so its failures surface as `StoreUnavailableError`. */
  kv: Deno.Kv;
  /** Lifetime of a new link in milliseconds. */
  ttlMs: number;
  /** Current time in epoch milliseconds. */
  now(): number;
  /**
   * The clicks committed to the click journals and not yet folded into their links' records,
   * which a link's `clicks` adds to its record's; set by the process's click buffer.
   */
  journaled?: JournaledClicks;
}

/**
 * Clicks the click journals hold beyond the links' records (`lib/clicks/journaled.ts`,
 * docs/decisions/2026-11-28-click-layout.md).
 */
export interface JournaledClicks {
  /** Reads what other writers journaled since the last call; concurrent calls share a read. */
  fresh(): Promise<void>;
  /**
   * The clicks of link `id` journaled and not folded into its record, given the record's marks:
   * by writer, the last commit whose journal it holds.
   */
  clicksOf(id: string, folded: Readonly<Record<string, number>>): number;
}

/** Options of {@linkcode openStore}. */
export interface OpenStoreOptions {
  /** Link lifetime in milliseconds; default seven days. */
  ttlMs?: number;
  /** Clock; default `Date.now`. */
  now?: () => number;
  /** How often a local store's file is checked for having vanished, in ms; default 1,000. */
  watchIntervalMs?: number;
  /**
   * Told why, when the store cannot be opened (a folder it may not write included): the store
   * is then handed out down (every call fails with `StoreUnavailableError`, so a service still
   * answers what needs no store) and opened again, with backoff, until it opens. Without it,
   * that is an error.
   */
  onUnavailable?: (error: Error) => void;
  /** Told when a store that could not be opened at first has opened. */
  onOpened?: () => void;
  /**
   * Told when a local store's file is found gone (`false`: the store is down), and when a file
   * at its path is opened (`true`: up again).
   */
  onFileChange?: (up: boolean) => void;
}

/** The first wait before opening a store again, in ms; each wait doubles, up to the next. */
export const FIRST_REOPEN_MS = 250;
/** The longest wait between two tries to open a store, in ms. */
export const MOST_REOPEN_MS = 4_000;

/** Seven days, the lifetime of a link. */
export const DEFAULT_TTL_MS = 7 * 24 * 3600 * 1000;

/** How long the store keeps a record past its deadline, so the 404 page can still name it. */
export const EXPIRED_GRACE_MS = 24 * 3600 * 1000;

/**
 * Opens the KV store at `path`: a local file (its folder is created), `:memory:`, a KV Connect
 * URL, or `undefined` for the platform's default store.
 */
export async function openStore(
  path: string | undefined,
  options: OpenStoreOptions = {},
): Promise<Store> {
  const local = path !== undefined && path !== ":memory:" && !/^https?:\/\//.test(path);
  const open = async () => {
    if (local) {
      const folder = path.replace(/[^/]*$/, "");
      if (folder) await Deno.mkdir(folder, { recursive: true });
    }
    return await Deno.openKv(path);
  };
  const watch = (slot: KvSlot) =>
    local
      ? watchStoreFile(slot, path, {
        intervalMs: options.watchIntervalMs,
        onChange: options.onFileChange,
      })
      : () => {};
  let slot: KvSlot;
  try {
    slot = { kv: await open(), down: null };
  } catch (error) {
    // Why, in words a person can act on: a folder this process may not write, say.
    let cause = error instanceof Error ? error : new Error(String(error));
    if (local) {
      await refuseUnwritable(path, error).catch((unwritable) => cause = unwritable);
    }
    if (!options.onUnavailable) throw cause;
    options.onUnavailable(cause);
    // Down until it opens: every call is refused before it reaches this stand-in. A folder
    // made writable, a file moved out of the way or a disk freed is noticed within seconds.
    slot = { kv: await Deno.openKv(":memory:"), down: cause };
    slot.onClose = openWhenReady(slot, open, (opened) => {
      options.onOpened?.();
      return watch(opened);
    });
    return storeOver(guardSlot(slot), options);
  }
  slot.onClose = watch(slot);
  return storeOver(guardSlot(slot), options);
}

/** A local store file whose folder this process cannot write to (or create). */
export class StoreUnwritableError extends Error {
  /** Builds the error for the store at `path`, saying why in `reason`. */
  constructor(readonly path: string, readonly reason: string, options?: ErrorOptions) {
    super(`cannot write the store at ${path}: ${reason}`, options);
    this.name = "StoreUnwritableError";
  }
}

/**
 * Throws {@linkcode StoreUnwritableError} when opening the store at `path` failed with `error`
 * because its folder cannot be made or written to: no permission, a read-only file system, or a
 * file where a folder should be. Returns for any other failure.
 */
async function refuseUnwritable(path: string, error: unknown): Promise<void> {
  const folder = path.replace(/[^/]*$/, "") || ".";
  let cause = error;
  if (!isUnwritable(cause)) {
    // Opening failed some other way (a folder where the file should be, say): may the folder be
    // written at all? The database's own error does not say.
    try {
      await Deno.remove(await Deno.makeTempFile({ dir: folder, prefix: ".lapse-write-check-" }));
      return;
    } catch (probe) {
      if (!isUnwritable(probe)) return;
      cause = probe;
    }
  }
  const reason =
    cause instanceof Deno.errors.AlreadyExists || cause instanceof Deno.errors.NotADirectory
      ? `${folder} is not a folder`
      : cause instanceof Error
      ? cause.message.replace(/ \(os error \d+\).*$/, "").toLowerCase()
      : String(cause);
  throw new StoreUnwritableError(path, reason, { cause });
}

// Failures no wait mends: no permission (the system's, or the runtime's `--allow-write`), a
// read-only file system, a file in the folder's way.
function isUnwritable(error: unknown): boolean {
  return error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable ||
    error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists ||
    (error instanceof Error && /read-only file system|os error 30\b/i.test(error.message));
}

/**
 * Tries `open` after {@linkcode FIRST_REOPEN_MS}, then after waits that double up to
 * {@linkcode MOST_REOPEN_MS}, until it opens; then puts the store in `slot` (up) and starts
 * `then` on it. A try that fails leaves its cause as the slot's. Returns a function that stops
 * trying, and whatever `then` started.
 */
function openWhenReady(
  slot: KvSlot,
  open: () => Promise<Deno.Kv>,
  then: (slot: KvSlot) => () => void,
): () => void {
  let stopThen = () => {};
  let stopped = false;
  let waitMs = FIRST_REOPEN_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const attempt = async () => {
    try {
      if (await openInto(slot, open, () => stopped)) {
        stopThen = then(slot);
        return;
      }
    } catch (error) {
      slot.down = error instanceof Error ? error : new Error(String(error));
    }
    if (stopped) return;
    waitMs = Math.min(waitMs * 2, MOST_REOPEN_MS);
    timer = setTimeout(attempt, waitMs);
    Deno.unrefTimer(timer);
  };
  timer = setTimeout(attempt, waitMs);
  Deno.unrefTimer(timer);
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopThen();
  };
}

/** Wraps an open `kv` as a {@linkcode Store}. */
export function createStore(kv: Deno.Kv, options: OpenStoreOptions = {}): Store {
  return storeOver(guardKv(kv), options);
}

function storeOver(kv: Deno.Kv, options: OpenStoreOptions): Store {
  return {
    kv,
    ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
    now: options.now ?? Date.now,
  };
}
