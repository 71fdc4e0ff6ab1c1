/**
 * What a page says about itself in its `<head>`: title, description, site name, image and
 * canonical link, read with htmlparser2's streaming parser, which stops at `</head>`.
 * @module
 */
import type { Parser as HtmlParser } from "htmlparser2";
import { concatBytes } from "../bytes.ts";
import { charsetOfContentType, chooseDecoder, SNIFF_BYTES } from "./charset.ts";

/** The fields a preview reads from a page; `""` where the page says nothing usable. */
export interface PageFields {
  /** `og:title`, else `twitter:title`, else `<title>`. */
  title: string;
  /** `og:description`, else `twitter:description`, else `<meta name="description">`. */
  description: string;
  /** `og:site_name`, else `<meta name="application-name">`. */
  siteName: string;
  /** `og:image` (or `og:image:url`), else `twitter:image` (or `twitter:image:src`); absolute. */
  image: string;
  /** `<link rel="canonical">`, else `og:url`; absolute. */
  canonical: string;
}

/** Longest text field kept, in characters; longer text is cut. */
export const MAX_TEXT_LENGTH = 1000;
/** Longest URL field kept, in characters; a longer URL is dropped. */
export const MAX_URL_LENGTH = 4096;

/** A head parser fed text as it is decoded. */
export interface HeadParser {
  /** Parses the next piece of the page; ignored once {@linkcode HeadParser.done}. */
  write(text: string): void;
  /** Whether the head is over (`</head>` or `<body>` seen), so nothing more is needed. */
  readonly done: boolean;
  /** Ends parsing and gives the fields, URLs made absolute against the page (or its `<base>`). */
  finish(): PageFields;
}

// The HTML parser is loaded on first use: a process that never previews a page does not carry it.
let Parser: typeof HtmlParser | null = null;

/** Loads the HTML parser {@linkcode createHeadParser} uses; cheap once it is loaded. */
export async function loadHtmlParser(): Promise<void> {
  Parser ??= (await import("htmlparser2")).Parser;
}

/** Starts parsing the head of the page at `pageUrl`; {@linkcode loadHtmlParser} must be done. */
export function createHeadParser(pageUrl: URL): HeadParser {
  if (Parser === null) throw new Error("the HTML parser is not loaded yet");
  const metas = new Map<string, string>();
  let title: string | null = null;
  let titleText: string | null = null;
  let canonical: string | null = null;
  let base: string | null = null;
  let foreignDepth = 0;
  let done = false;
  const stop = () => {
    done = true;
    parser.pause();
  };
  const parser = new Parser({
    onopentag(name, attributes) {
      if (done) return;
      if (name === "body") return stop();
      // `<title>` inside inline SVG or MathML names a drawing, not the page.
      if (name === "svg" || name === "math") foreignDepth++;
      else if (name === "title" && title === null && foreignDepth === 0) titleText = "";
      else if (name === "meta") readMeta(attributes, metas);
      else if (name === "link" && canonical === null && isCanonicalLink(attributes)) {
        canonical = attributes.href ?? null;
      } else if (name === "base" && base === null && attributes.href) base = attributes.href;
    },
    ontext(text) {
      if (titleText !== null) titleText += text;
    },
    onclosetag(name) {
      if (done) return;
      if (name === "head") return stop();
      if ((name === "svg" || name === "math") && foreignDepth > 0) foreignDepth--;
      else if (name === "title" && titleText !== null) {
        title = titleText;
        titleText = null;
      }
    },
  }, { decodeEntities: true });
  return {
    write(text) {
      if (!done) parser.write(text);
    },
    get done() {
      return done;
    },
    finish() {
      if (!done) parser.end();
      const baseHref = base === null ? null : absoluteUrl(base, pageUrl);
      const baseUrl = baseHref === null ? pageUrl : new URL(baseHref);
      const text = (...values: (string | null | undefined)[]) =>
        values.map(cleanText).find((value) => value !== "") ?? "";
      const url = (...values: (string | null | undefined)[]) =>
        values.map((value) => value ? absoluteUrl(value, baseUrl) : null)
          .find((value) => value !== null) ?? "";
      const meta = (key: string) => metas.get(key);
      return {
        title: text(meta("og:title"), meta("twitter:title"), title ?? titleText),
        description: text(
          meta("og:description"),
          meta("twitter:description"),
          meta("description"),
        ),
        siteName: text(meta("og:site_name"), meta("application-name")),
        image: url(
          meta("og:image"),
          meta("og:image:url"),
          meta("twitter:image"),
          meta("twitter:image:src"),
        ),
        canonical: url(canonical, meta("og:url")),
      };
    },
  };
}

/** Options of {@linkcode readHeadFields}. */
export interface ReadHeadOptions {
  /** The page's address, for relative URLs. */
  pageUrl: URL;
  /** The response's `Content-Type`, for its charset. */
  contentType: string;
  /** Most bytes of `body` read. */
  maxBytes: number;
}

/**
 * Reads `body` until its head is over or `maxBytes` are read, decoding it in its charset (see
 * {@linkcode chooseDecoder}), and returns the head's fields.
 */
export async function readHeadFields(
  body: AsyncIterable<Uint8Array>,
  options: ReadHeadOptions,
): Promise<PageFields> {
  await loadHtmlParser();
  const head = createHeadParser(options.pageUrl);
  const declared = charsetOfContentType(options.contentType);
  let start: Uint8Array = new Uint8Array(0);
  let decoder: TextDecoder | null = null;
  let read = 0;
  for await (const chunk of body) {
    const part = chunk.subarray(0, options.maxBytes - read);
    read += part.length;
    if (decoder) {
      head.write(decoder.decode(part, { stream: true }));
    } else {
      // Hold the first bytes back until there are enough to look for a `<meta>` charset.
      start = concatBytes(start, part);
      if (start.length < SNIFF_BYTES && read < options.maxBytes) continue;
      decoder = chooseDecoder(declared, start);
      head.write(decoder.decode(start, { stream: true }));
    }
    if (head.done || read >= options.maxBytes) break;
  }
  if (decoder) {
    head.write(decoder.decode());
  } else {
    // The whole body was shorter than the sniffing window.
    head.write(chooseDecoder(declared, start).decode(start));
  }
  return head.finish();
}

/** Collapses whitespace, trims, and cuts at {@linkcode MAX_TEXT_LENGTH} characters. */
export function cleanText(value: string | null | undefined): string {
  const text = (value ?? "").replace(/\s+/g, " ").trim();
  if (text.length <= MAX_TEXT_LENGTH) return text;
  return Array.from(text).slice(0, MAX_TEXT_LENGTH).join("").trimEnd();
}

/** `value` resolved against `base` when the result is http(s) and not too long, else `null`. */
export function absoluteUrl(value: string, base: URL): string | null {
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.href.length <= MAX_URL_LENGTH ? url.href : null;
  } catch {
    return null;
  }
}

function readMeta(attributes: Record<string, string>, metas: Map<string, string>): void {
  const content = attributes.content;
  if (content === undefined) return;
  for (const key of [attributes.property, attributes.name]) {
    const name = key?.trim().toLowerCase();
    if (name && !metas.has(name)) metas.set(name, content);
  }
}

function isCanonicalLink(attributes: Record<string, string>): boolean {
  return Boolean(attributes.href) &&
    (attributes.rel ?? "").toLowerCase().split(/\s+/).includes("canonical");
}
