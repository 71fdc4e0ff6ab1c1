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
export type Logger = (line: LogLine) => void;

/** A logger writing each line as one JSON line to stdout. */
export function stdoutLogger(): Logger {
  return function writeLine(line) {
    console.log(JSON.stringify(line));
  };
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
  return { time: new Date().toISOString(), level, msg, ...fields };
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
