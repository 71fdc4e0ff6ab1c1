/**
 * Structured logs: one JSON object per line, written by an injectable logger.
 * @module
 */

/** How much a log line matters. */
export type LogLevel = "info" | "warn" | "error";

/** One structured log line; `time`, `level` and `msg` come first, then the line's own fields. */
export interface LogLine {
  /** When, ISO 8601 UTC. */
  time: string;
  level: LogLevel;
  /** What happened, in a word or two (`request`, `unexpected error`). */
  msg: string;
  [field: string]: unknown;
}

/** Where log lines go. */
export interface Logger {
  (line: LogLine): void;
  /**
   * Takes a line already written as JSON, for the hot path; a logger without it is given
   * {@linkcode LogLine} objects instead.
   */
  json?(text: string): void;
  /** Writes out what is buffered. */
  flush?(): Promise<void>;
}

/** Options of {@linkcode stdoutLogger}. */
export interface StdoutLoggerOptions {
  /** Where the bytes go; default standard output. */
  writer?: { write(bytes: Uint8Array): Promise<number> };
  /** Longest a line waits before it is written, in ms; default 100. */
  delayMs?: number;
  /** Characters of pending lines that make a write start at once; default 65,536. */
  maxBuffered?: number;
}

/**
 * A logger writing each line as one JSON line to standard output. Lines are gathered as text and
 * encoded and written together a moment later, so a busy server makes a few large writes rather
 * than one small write (or one encoding) per request; {@linkcode Logger.flush} writes what is
 * left, as on shutdown.
 */
export function stdoutLogger(options: StdoutLoggerOptions = {}): Logger {
  const writer = options.writer ?? Deno.stdout;
  const delayMs = options.delayMs ?? 100;
  const capacity = Math.max(options.maxBuffered ?? 65_536, 1024);
  const encoder = new TextEncoder();
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === "") return writing;
    const bytes = encoder.encode(pending);
    pending = "";
    writing = writing.then(() => writeAll(writer, bytes)).catch(() => {});
    return writing;
  };
  const take = (text: string) => {
    pending += text + "\n";
    if (pending.length >= capacity) void flush();
    else timer ??= setTimeout(flush, delayMs);
  };
  const logger: Logger = (line) => take(JSON.stringify(line));
  logger.json = take;
  logger.flush = flush;
  return logger;
}

/** A logger that drops every line, for tests that do not look at logs. */
export function silentLogger(): Logger {
  return function dropLine() {};
}

/** A line of `level` saying `msg`, stamped with the current time, carrying `fields`. */
export function logLine(
  level: LogLevel,
  msg: string,
  fields: Record<string, unknown> = {},
): LogLine {
  return { time: isoNow(), level, msg, ...fields };
}

let lastMs = 0;
let lastIso = "";

/** The current time in ISO 8601, made once per millisecond however many lines ask. */
export function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}

async function writeAll(
  writer: { write(bytes: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await writer.write(bytes.subarray(written));
}

/** What a log line says of an error: its name, message and stack, and its cause's. */
export function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const described: Record<string, unknown> = {
    name: error.name,
    message: error.message,
    stack: error.stack,
  };
  if (error.cause !== undefined) described.cause = describeError(error.cause);
  return described;
}
