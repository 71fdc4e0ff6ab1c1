/**
 * The links made in this browser, kept in `localStorage` and shared by the islands of a page:
 * the forms add to it, the recent-links list shows it, a deletion takes from it. The islands
 * share it through a plain subscription rather than a signal, which would add the signals
 * library (3 KB gzipped) to the start page's budget of 15 KB.
 * @module
 */
import { useEffect, useState } from "preact/hooks";

/** A link remembered by this browser. */
export interface RecentLink {
  slug: string;
  shortUrl: string;
  /** ISO deadline; the link is dropped once it has passed. */
  expiresAt: string;
}

const STORAGE_KEY = "lapse.recent";
const MAX_REMEMBERED = 20;

// The remembered links, newest first; empty until `loadRecent` runs. Each listener is an
// island's state setter, told of every change.
let recent: RecentLink[] = [];
const listeners = new Set<(links: RecentLink[]) => void>();

/** The remembered links, newest first, as a component's state that follows every change. */
export function useRecentLinks(): RecentLink[] {
  const [links, setLinks] = useState(recent);
  useEffect(() => {
    listeners.add(setLinks);
    setLinks(recent);
    return () => void listeners.delete(setLinks);
  }, []);
  return links;
}

let loaded = false;

/** Reads the remembered links, dropping expired ones. */
export function loadRecent(now = Date.now()): void {
  loaded = true;
  let stored: unknown = [];
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "[]");
  } catch {
    stored = [];
  }
  const links = Array.isArray(stored) ? stored.filter(isRecentLink) : [];
  save(links.filter((link) => Date.parse(link.expiresAt) > now));
}

/** Remembers `links` (newest first), ahead of those already remembered. */
export function rememberLinks(links: RecentLink[]): void {
  if (!loaded) loadRecent();
  const slugs = new Set(links.map((link) => link.slug));
  const kept = recent.filter((link) => !slugs.has(link.slug));
  save([...links.map(({ slug, shortUrl, expiresAt }) => ({ slug, shortUrl, expiresAt })), ...kept]);
}

/** Forgets the link `slug`, deleted from this browser. */
export function forgetLink(slug: string): void {
  if (!loaded) loadRecent();
  save(recent.filter((link) => link.slug !== slug));
}

/** Forgets every remembered link. */
export function forgetRecent(): void {
  save([]);
}

function save(links: RecentLink[]): void {
  recent = links.slice(0, MAX_REMEMBERED);
  for (const listener of listeners) listener(recent);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(recent));
  } catch {
    // Storage may be full or refused (private browsing): the list lives for this page only.
  }
}

/**
 * Whether `text` is an http(s) URL, safe as a link's `href`. The list comes from storage that
 * any script of this origin, or a person, may have written: a `javascript:` URL stays text.
 */
export function isWebAddress(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

function isRecentLink(value: unknown): value is RecentLink {
  const link = value as RecentLink;
  return typeof link === "object" && link !== null && typeof link.slug === "string" &&
    typeof link.shortUrl === "string" && typeof link.expiresAt === "string";
}
