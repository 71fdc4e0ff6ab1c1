/**
 * Serving `static/`: a path no file can have is simply not found, and an unexpected failure to
 * read a file is logged as one JSON line, never printed raw.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { serveStatic } from "hono/serve-static";
import { join } from "node:path";
import { describeError, type Logger, logLine } from "../../lib/log/mod.ts";

/** Options of {@linkcode staticFiles}. */
export interface StaticFilesOptions {
  /** The folder request paths are resolved in; default `./`. */
  root?: string;
  /** Where an unexpected read failure is logged. */
  log: Logger;
}

// Longest file name most file systems take, in bytes.
const NAME_MAX = 255;
const encoder = new TextEncoder();

/**
 * Serves files under `root` for GET and HEAD. A name too long, a NUL byte or a path through a
 * file (what a scanner sends) answer as not found, as a missing file does.
 */
export function staticFiles(options: StaticFilesOptions): MiddlewareHandler {
  const serve = serveStatic({
    root: options.root ?? "./",
    join,
    isDir: async (path) => {
      try {
        return (await Deno.stat(path)).isDirectory;
      } catch {
        return false;
      }
    },
    getContent: async (path) => {
      if (path.includes("\0") || path.split("/").some((name) => tooLong(name))) return null;
      try {
        return (await Deno.open(path)).readable;
      } catch (error) {
        if (!isMissing(error)) {
          options.log(logLine("error", "static file unreadable", { error: describeError(error) }));
        }
        return null;
      }
    },
  });
  return function staticFiles(c, next) {
    return serve(c, next);
  };
}

function tooLong(name: string): boolean {
  return name.length > NAME_MAX / 3 && encoder.encode(name).length > NAME_MAX;
}

function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory ||
    error instanceof Deno.errors.IsADirectory;
}
