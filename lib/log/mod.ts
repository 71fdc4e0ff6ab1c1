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
   * Takes a line as `fields` and the function that writes them as one line of JSON, called
   * when the line is written out rather than now: the hot path's way to log. A logger without
   * it is given {@linkcode LogLine} objects instead.
   */
  later?<T>(fields: T, render: (fields: T) => string): void;
  /** Writes out what is buffered. */
  flush?(): Promise<void>;
}

/** Options of {@linkcode stdoutLogger}. */
export interface StdoutLoggerOptions {
  /** Where the bytes go; default standard output. */
  writer?: { write(bytes: Uint8Array): Promise<number> };
  /** Longest a line waits before it is written, in ms; default 100. */
  delayMs?: number;
  /**
   * Pending lines that make a write start at once; default 200. Kept small so that, under load,
   * pending lines are written before the garbage collector moves them to the old generation.
   */
  maxLines?: number;
}

/**
 * A logger writing each line as one JSON line to standard output. Lines wait a moment and are
 * then rendered, encoded and written together, so a busy server makes a few large writes
 * rather than one small write (or one encoding) per request, and the hot path's lines
 * ({@linkcode Logger.later}) are rendered in a batch, off their requests.
 * {@linkcode Logger.flush} writes what is left, as on shutdown.
 */
export function stdoutLogger(options: StdoutLoggerOptions = {}): Logger {
  const writer = options.writer ?? Deno.stdout;
  const delayMs = options.delayMs ?? 100;
  const maxLines = Math.max(options.maxLines ?? 200, 1);
  const encoder = new TextEncoder();
  // Lines waiting, each a value and the function that renders it.
  let values: unknown[] = [];
  let renders: ((value: never) => string)[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (values.length === 0) return writing;
    const text = renderLines(values, renders);
    values = [];
    renders = [];
    const bytes = encoder.encode(text);
    writing = writing.then(() => writeAll(writer, bytes)).catch(() => {});
    return writing;
  };
  const later = <T>(value: T, render: (value: T) => string) => {
    values.push(value);
    renders.push(render);
    if (values.length >= maxLines) void flush();
    else timer ??= setTimeout(flush, delayMs);
  };
  // A plain line is written as JSON at once, so one that cannot be fails where it was logged.
  const logger: Logger = (line) => later(JSON.stringify(line), asIs);
  logger.later = later;
  logger.flush = flush;
  return logger;
}

function asIs(text: string): string {
  return text;
}

function renderLines(values: unknown[], renders: ((value: never) => string)[]): string {
  let text = "";
  for (let i = 0; i < values.length; i++) {
    try {
      text += (renders[i] as (value: unknown) => string)(values[i]) + "\n";
    } catch (error) {
      // One line that cannot be rendered must not cost the others.
      text += JSON.stringify(
        logLine("error", "a log line could not be written", { error: describeError(error) }),
      ) + "\n";
    }
  }
  return text;
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
  return { time: isoTime(), level, msg, ...fields };
}

let lastMs = 0;
let lastIso = "";

/**
 * The time `ms` (epoch ms, default now) in ISO 8601, made once per millisecond however many
 * lines ask.
 */
export function isoTime(ms: number = Date.now()): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
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
