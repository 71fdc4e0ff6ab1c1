/**
 * Serving `static/`: each file with its length and a validator, gzipped when it is text and the
 * client takes gzip, cached for a year when its name carries a hash of its content and
 * revalidated otherwise; a path no file can have is simply not found, and an unexpected failure
 * to read a file is logged as one JSON line, never printed raw.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { serveStatic } from "hono/serve-static";
import { getMimeType } from "hono/utils/mime";
import { join } from "node:path";
import { gzipBest } from "../../lib/compression.ts";
import { describeError, type Logger, logLine } from "../../lib/log/mod.ts";
import { takesOneOf } from "../_lib/negotiate.ts";

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

// The island bundles' chunks are named after a hash of their content (`CreateForm-CJDKOC63.js`):
// a new build gives a changed file a new name, so a browser may keep one for good. Every other
// file (the stylesheet, the icon, the bundles' entry) keeps its name across changes and is
// checked again on each use, which its validator makes a 304 when it has not changed.
const HASHED_NAME = /-[A-Z0-9]{8}\.js$/;
const FOR_GOOD = "public, max-age=31536000, immutable";
const CHECK_EACH_TIME = "no-cache";
// What gzip makes smaller; the rest (images other than SVG) is sent as it is.
const COMPRESSIBLE = /^(?:text\/|image\/svg\+xml|application\/(?:json|manifest\+json))/;
const GZIP: ReadonlySet<string> = new Set(["gzip"]);

/**
 * Serves files under `root` for GET and HEAD, with `Content-Length`, an `ETag` (answered with
 * 304 when `If-None-Match` names it), `Cache-Control` and `nosniff`; text gzipped when the
 * client takes it. A name too long, a NUL byte, a trailing slash or a path through a file (what
 * a scanner sends) answer as not found, as a missing file does.
 */
export function staticFiles(options: StaticFilesOptions): MiddlewareHandler {
  const gzipped = new GzipCopies();
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
    getContent: async (path, c) => {
      if (!plausiblePath(path)) return null;
      let file: Deno.FsFile;
      try {
        file = await Deno.open(path);
      } catch (error) {
        if (!isMissing(error)) {
          options.log(logLine("error", "static file unreadable", { error: describeError(error) }));
        }
        return null;
      }
      let info: Deno.FileInfo;
      try {
        info = await file.stat();
      } catch (error) {
        file.close();
        throw error;
      }
      if (!info.isFile) {
        file.close();
        return null;
      }
      const type = getMimeType(path) ?? "application/octet-stream";
      const compressible = COMPRESSIBLE.test(type);
      const gzip = compressible && takesOneOf(c.req.header("Accept-Encoding"), GZIP);
      const tag = entityTag(info, gzip);
      const headers: Record<string, string> = {
        "Content-Type": type,
        "Cache-Control": HASHED_NAME.test(path) ? FOR_GOOD : CHECK_EACH_TIME,
        "ETag": tag,
        "X-Content-Type-Options": "nosniff",
      };
      if (compressible) headers["Vary"] = "Accept-Encoding";
      if (matches(c.req.header("If-None-Match"), tag)) {
        file.close();
        return new Response(null, { status: 304, headers });
      }
      if (gzip) {
        const bytes = await gzipped.of(path, tag, file);
        headers["Content-Encoding"] = "gzip";
        headers["Content-Length"] = String(bytes.byteLength);
        return new Response(c.req.method === "HEAD" ? null : bytes, { headers });
      }
      headers["Content-Length"] = String(info.size);
      if (c.req.method === "HEAD") {
        file.close();
        return new Response(null, { headers });
      }
      return new Response(file.readable, { headers });
    },
  });
  return function staticFiles(c, next) {
    return serve(c, next);
  };
}

function plausiblePath(path: string): boolean {
  return !path.includes("\0") && !path.endsWith("/") &&
    !path.split("/").some((name) => tooLong(name));
}

function tooLong(name: string): boolean {
  return name.length > NAME_MAX / 3 && encoder.encode(name).length > NAME_MAX;
}

/**
 * A weak validator from the file's size and time of change, what a new build changes; the
 * gzipped copy has one of its own.
 */
function entityTag(info: Deno.FileInfo, gzip: boolean): string {
  const version = `${info.size.toString(16)}-${(info.mtime?.getTime() ?? 0).toString(16)}`;
  return `W/"${version}${gzip ? "-gz" : ""}"`;
}

/**
 * Each file's gzipped copy, made on its first request and kept while the file is unchanged:
 * the files are few and small (the stylesheet, the icon, the island bundles), so each is
 * compressed once, at gzip's best level.
 */
class GzipCopies {
  #copies = new Map<string, { tag: string; bytes: Uint8Array<ArrayBuffer> }>();

  /** The gzipped bytes of `file` at `path`, whose version `tag` names; closes `file`. */
  async of(path: string, tag: string, file: Deno.FsFile): Promise<Uint8Array<ArrayBuffer>> {
    const kept = this.#copies.get(path);
    if (kept?.tag === tag) {
      file.close();
      return kept.bytes;
    }
    const bytes = await gzipBest(new Uint8Array(await new Response(file.readable).arrayBuffer()));
    this.#copies.set(path, { tag, bytes });
    return bytes;
  }
}

/** Whether an `If-None-Match` list names `tag`, compared weakly (RFC 9110, 13.1.2). */
function matches(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, "");
  return header.trim() === "*" || header.split(",").some((item) => opaque(item) === opaque(tag));
}

function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory ||
    error instanceof Deno.errors.IsADirectory;
}
