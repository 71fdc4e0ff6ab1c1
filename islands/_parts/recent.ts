/**
 * The links made in this browser, kept in `localStorage` and shared by the islands of a page
 * through a signal: the forms add to it, the recent-links list shows it, a deletion takes from it.
 * @module
 */
import { signal } from "@preact/signals";

/** A link remembered by this browser. */
export interface RecentLink {
  slug: string;
  shortUrl: string;
  /** ISO deadline; the link is dropped once it has passed. */
  expiresAt: string;
}

const STORAGE_KEY = "lapse.recent";
const MAX_REMEMBERED = 20;

/** The remembered links, newest first; empty until {@linkcode loadRecent} runs. */
export const recentLinks = signal<RecentLink[]>([]);

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
  const kept = recentLinks.value.filter((link) => !slugs.has(link.slug));
  save([...links.map(({ slug, shortUrl, expiresAt }) => ({ slug, shortUrl, expiresAt })), ...kept]);
}

/** Forgets the link `slug`, deleted from this browser. */
export function forgetLink(slug: string): void {
  if (!loaded) loadRecent();
  save(recentLinks.value.filter((link) => link.slug !== slug));
}

/** Forgets every remembered link. */
export function forgetRecent(): void {
  save([]);
}

function save(links: RecentLink[]): void {
  recentLinks.value = links.slice(0, MAX_REMEMBERED);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(recentLinks.value));
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
