/**
 * Which character encoding a page is in: its byte order mark, its `Content-Type` charset, a
 * `<meta>` near its start, or UTF-8.
 * @module
 */

/** How many leading bytes are searched for a `<meta>` charset. */
export const SNIFF_BYTES = 4096;

const latin1 = new TextDecoder("latin1");

/** The MIME type of a `Content-Type` value, lower case, without parameters. */
export function mimeTypeOf(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/** The `charset` parameter of a `Content-Type` value, or `null`. */
export function charsetOfContentType(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const label = (match?.[1] ?? match?.[2] ?? "").trim();
  return label === "" ? null : label;
}

/**
 * The charset a `<meta charset>` or `<meta http-equiv="content-type" content="...; charset=">`
 * declares in `bytes` (read as ASCII, comments skipped), or `null`.
 */
export function sniffMetaCharset(bytes: Uint8Array): string | null {
  const text = latin1.decode(bytes.subarray(0, SNIFF_BYTES)).replace(/<!--[\s\S]*?(?:-->|$)/g, "");
  for (const tag of text.matchAll(/<meta\b[^>]*>?/gi)) {
    const match = /\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/i.exec(tag[0]);
    if (match?.[1]) return match[1];
  }
  return null;
}

/**
 * A decoder for a page whose `Content-Type` charset is `declared` and which starts with
 * `firstBytes`: a byte order mark wins, then the header, then a `<meta>`, then UTF-8. Labels
 * TextDecoder does not know are passed over.
 */
export function chooseDecoder(declared: string | null, firstBytes: Uint8Array): TextDecoder {
  const bom = encodingOfBom(firstBytes);
  if (bom) return new TextDecoder(bom);
  const fromHeader = declared === null ? null : decoderFor(declared);
  if (fromHeader) return fromHeader;
  const meta = sniffMetaCharset(firstBytes);
  // A page found by an ASCII scan cannot be UTF-16; the HTML standard reads it as UTF-8 then.
  const fromMeta = meta === null ? null : decoderFor(meta);
  if (fromMeta && !fromMeta.encoding.startsWith("utf-16")) return fromMeta;
  return new TextDecoder("utf-8");
}

function encodingOfBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

function decoderFor(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}
