/**
 * Example values the route specs show in the API document; a test parses each one with its
 * schema, so they cannot drift from what the API takes and answers.
 * @module
 */
import type { LinkListEntry, LinkView, UnshortenView } from "../../lib/links/mod.ts";

/** The origin examples use. */
export const EXAMPLE_ORIGIN = "https://lapse.example";

/** A link as create answers it. */
export const EXAMPLE_LINK: LinkView = {
  slug: "hello",
  shortUrl: `${EXAMPLE_ORIGIN}/hello`,
  url: "https://example.com/a/long/path",
  title: "A long path",
  protected: false,
  expiresInDays: 7,
  expiresAt: "2026-11-09T12:00:00.000Z",
  maxVisits: null,
  visitsLeft: null,
};

/** A link as the list shows it. */
export const EXAMPLE_LIST_ENTRY: LinkListEntry = {
  slug: "hello",
  shortUrl: `${EXAMPLE_ORIGIN}/hello`,
  url: "https://example.com/a/long/path",
  host: "example.com",
  title: "A long path",
  note: "",
  clicks: 12,
  protected: false,
  createdAt: "2026-11-02T12:00:00.000Z",
  lastUsedAt: "2026-11-03T08:15:00.000Z",
  expiresAt: "2026-11-09T12:00:00.000Z",
  expiresInDays: 6,
  maxVisits: null,
  visitsLeft: null,
};

/** A protected link as the list shows it to a client without its unlock cookie. */
export const EXAMPLE_PROTECTED_ENTRY: LinkListEntry = {
  ...EXAMPLE_LIST_ENTRY,
  slug: "secret",
  shortUrl: `${EXAMPLE_ORIGIN}/secret`,
  url: null,
  host: null,
  title: "",
  clicks: 0,
  protected: true,
  lastUsedAt: null,
  maxVisits: 1,
  visitsLeft: 1,
};

/** A link as unshorten answers it. */
export const EXAMPLE_UNSHORTEN: UnshortenView = {
  slug: "hello",
  shortUrl: `${EXAMPLE_ORIGIN}/hello`,
  url: "https://example.com/a/long/path",
  protected: false,
  clicks: 12,
  createdAt: "2026-11-02T12:00:00.000Z",
  expiresAt: "2026-11-09T12:00:00.000Z",
  expiresInDays: 6,
  maxVisits: null,
  visitsLeft: null,
};
