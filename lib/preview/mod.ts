/**
 * Page previews that cannot be turned against the service's own network: every hop is checked by
 * name, port and resolved address before the connection goes to a checked address
 * ({@linkcode checkTarget}, {@linkcode openPage}).
 * @module
 */
import { parseWebAddress } from "../links/destination.ts";
import { mimeTypeOf } from "./charset.ts";
import { absoluteUrl, type PageFields, readHeadFields } from "./extract.ts";
import type { PagePreview } from "./schema.ts";
import { type Dialer, dialWithDeno, io, openPage, UnreachableError } from "./fetch.ts";
import { checkTarget, type Resolver, resolveWithDns } from "./target.ts";

export type { PageFields } from "./extract.ts";
export type { Dialer } from "./fetch.ts";
export type { Resolver } from "./target.ts";
export * from "./schema.ts";

/** The network a preview uses, and its bounds; everything has a production default. */
export interface PreviewOptions {
  /** Name lookup; default A and AAAA through `Deno.resolveDns`. */
  resolve?: Resolver;
  /** Opens TCP connections to checked addresses; default `Deno.connect`. */
  dial?: Dialer;
  /** Time for the whole preview, every hop included; default 5 s. */
  timeoutMs?: number;
  /** Most body bytes read; default 512 KiB. */
  maxBytes?: number;
  /** Most redirects followed; default 5. */
  maxRedirects?: number;
  /** Extra trusted root certificates (PEM), for tests. */
  caCerts?: string[];
}

/** The default bounds of a preview. */
export const PREVIEW_LIMITS = {
  timeoutMs: 5_000,
  maxBytes: 512 * 1024,
  maxRedirects: 5,
} as const;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** What one hop gave: a page's fields, a redirect, or nothing usable. */
type Hop =
  | { kind: "page"; fields: PageFields }
  | { kind: "redirect"; location: URL }
  | { kind: "nothing" };

/**
 * Previews the page at `address` (`https://` prepended when it has no scheme). Throws
 * `InvalidInputError` for a non-http(s) URL and `PreviewRefusedError` when it or a redirect names
 * an inner host or address, a port other than 80 and 443, or credentials. A page that cannot be
 * had gives a preview with empty fields, for the last address reached.
 */
export async function previewPage(
  address: string,
  options: PreviewOptions & { serviceHost: string; blocked?: (hostname: string) => boolean },
): Promise<PagePreview> {
  // Credentials are refused by checkTarget, with the reason every preview refusal carries.
  let url = parseWebAddress(address, { credentials: true }).url;
  const timeoutMs = options.timeoutMs ?? PREVIEW_LIMITS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? PREVIEW_LIMITS.maxRedirects;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new UnreachableError(`no answer within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    for (let redirects = 0;; redirects++) {
      const hop = await visit(url, { ...options, signal: controller.signal });
      if (hop.kind === "redirect" && redirects < maxRedirects) {
        url = hop.location;
        continue;
      }
      return hop.kind === "page" ? { ...emptyPreview(url), ...hop.fields } : emptyPreview(url);
    }
  } catch (error) {
    if (error instanceof UnreachableError) return emptyPreview(url);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

async function visit(
  url: URL,
  options: PreviewOptions & {
    serviceHost: string;
    blocked?: (hostname: string) => boolean;
    signal: AbortSignal;
  },
): Promise<Hop> {
  const { signal } = options;
  const resolve = options.resolve ?? resolveWithDns;
  const target = await checkTarget(url, {
    serviceHost: options.serviceHost,
    blocked: options.blocked,
    signal,
    resolve: (hostname, lookup) => io(resolve(hostname, lookup), signal, "the name lookup failed"),
  });
  if (target === null) return { kind: "nothing" };
  const page = await openPage(url, target, {
    dial: options.dial ?? dialWithDeno,
    signal,
    caCerts: options.caCerts,
  });
  try {
    if (REDIRECT_STATUSES.has(page.status)) {
      const location = redirectTarget(page.headers.get("location"), url);
      return location ? { kind: "redirect", location } : { kind: "nothing" };
    }
    const contentType = page.headers.get("content-type") ?? "";
    if (page.status < 200 || page.status > 299 || !HTML_TYPES.has(mimeTypeOf(contentType))) {
      return { kind: "nothing" };
    }
    const fields = await readHeadFields(page.body, {
      pageUrl: url,
      contentType,
      maxBytes: options.maxBytes ?? PREVIEW_LIMITS.maxBytes,
    });
    return { kind: "page", fields };
  } finally {
    page.close();
  }
}

/** Where a redirect leads, if it is an http(s) URL; credentials in it are dropped. */
function redirectTarget(location: string | undefined, from: URL): URL | null {
  const href = location ? absoluteUrl(location, from) : null;
  if (href === null) return null;
  const url = new URL(href);
  url.username = "";
  url.password = "";
  return url;
}

function emptyPreview(url: URL): PagePreview {
  return {
    url: url.href,
    host: url.hostname,
    title: "",
    description: "",
    siteName: "",
    image: "",
    canonical: "",
  };
}
