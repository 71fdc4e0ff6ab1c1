/**
 * The release history: the one source of `/api/version`, `/api/changelog` and the changelog page.
 * @module
 */
import { z } from "zod";

/** What one release changed. */
export const releaseChanges = z.object({
  added: z.array(z.string()).describe("What is new"),
  fixed: z.array(z.string()).describe("What was wrong and is right now"),
  changed: z.array(z.string()).describe("What works differently"),
});

/** What one release changed. */
export type ReleaseChanges = z.infer<typeof releaseChanges>;

/** One release. */
export const release = z.object({
  version: z.string().describe("Semantic version"),
  date: z.iso.date().describe("Release date, `YYYY-MM-DD`"),
  title: z.string(),
  changes: releaseChanges,
});

/** One release. */
export type Release = z.infer<typeof release>;

/** Every release, newest first. */
export const RELEASES: readonly Release[] = [
  {
    version: "1.1.0",
    date: "2026-10-04",
    title: "Links that lapse",
    changes: {
      added: [
        "Seven-day expiry: every link lives seven days, then its slug, destination and clicks are deleted",
        "Expiry fields on the API: expiresAt and expiresInDays on create, bulk, unshorten, links and export",
        "Sweep: an hourly job and /api/sweep remove expired links; legacy links get a real deadline",
        "Bulk creation of up to ten links per request with POST /api/bulk",
        "Unshorten: GET /api/unshorten expands a slug or short URL to its destination",
        "Export: GET /api/export lists every live link as text, CSV or JSON",
        "A real 404 page that says where an expired link pointed, or that the name is free",
      ],
      fixed: [],
      changed: [
        "Reserved-word additions, so no link can shadow a page of the service",
      ],
    },
  },
  {
    version: "1.0.0",
    date: "2026-09-06",
    title: "First release",
    changes: {
      added: [
        "Short links with random or custom slugs",
        "Password-protected links with an unlock cookie",
        "Slug check, link list, click counting and service-wide stats",
        "Page preview of an address",
        "Version and changelog documents",
      ],
      fixed: [],
      changed: [],
    },
  },
];

/** The running release. */
export const CURRENT_RELEASE: Release = RELEASES[0]!;

/** The `/api/version` document. */
export const versionDocumentSchema = z.object({
  version: z.string().describe("The running release"),
  released: z.iso.date().describe("Its date, `YYYY-MM-DD`"),
  latest: release.describe("The running release in full"),
  commits: z.null().describe("Always `null`: no commit list is published"),
});

/** The `/api/version` document. */
export type VersionDocument = z.infer<typeof versionDocumentSchema>;

/** The `/api/changelog` document: the version document plus every release. */
export const changelogDocumentSchema = versionDocumentSchema.extend({
  releases: z.array(release).readonly().describe("Every release, newest first"),
});

/** The `/api/changelog` document. */
export type ChangelogDocument = z.infer<typeof changelogDocumentSchema>;

/** The version document of the running release. */
export function versionDocument(): VersionDocument {
  return {
    version: CURRENT_RELEASE.version,
    released: CURRENT_RELEASE.date,
    latest: CURRENT_RELEASE,
    commits: null,
  };
}

/** The changelog document: every release, newest first. */
export function changelogDocument(): ChangelogDocument {
  return { ...versionDocument(), releases: RELEASES };
}
