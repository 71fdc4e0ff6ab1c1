import type { LinkListEntry } from "../lib/links/record.ts";
import { searchTextOf } from "../lib/links/list.ts";
import DeleteLink from "../islands/DeleteLink.tsx";
import LinkFilter from "../islands/LinkFilter.tsx";
import { daysLeft, formatTime, plural, visitsLeftText } from "../islands/_parts/format.ts";
import { Island, ISLANDS_SCRIPT } from "./Island.tsx";
import { Layout } from "./Layout.tsx";

/** Props of {@linkcode LinksPage}. */
export interface LinksPageProps {
  /** The links to show, newest first. */
  entries: LinkListEntry[];
  /** Whether more links matched than are shown. */
  truncated: boolean;
  /** The filter (`?q=`), `""` for none. */
  q: string;
  /** The slug just deleted without JavaScript, to confirm it. */
  removed?: string;
}

/**
 * Every live link, newest first: clicks, time left, a badge on protected ones (whose destination
 * is never shown), a filter and a delete button.
 */
export function LinksPage({ entries, truncated, q, removed }: LinksPageProps) {
  return (
    <Layout title="Links" current="/links" scripts={[ISLANDS_SCRIPT]}>
      <h1>Links</h1>
      <p class="lead">
        Every live link, newest first. Anyone may delete a link; no password is asked.
      </p>
      {removed && <p class="card notice ok" role="status">Deleted /{removed}</p>}
      <Island component={LinkFilter} props={{ q, total: entries.length, truncated }} />
      {truncated && (
        <p class="muted">
          Showing the newest {entries.length}. Filter to find older ones, or use{" "}
          <a href="/api/export">the export</a>.
        </p>
      )}
      {entries.length === 0
        ? (
          <p class="card">
            {q ? <>No link matches “{q}”.</> : <>No live links yet.</>} <a href="/">Make one</a>.
          </p>
        )
        : (
          <ul class="link-list">
            {entries.map((entry) => <LinkRow key={entry.slug} entry={entry} q={q} />)}
          </ul>
        )}
    </Layout>
  );
}

/** The id of a link's row in the list, for a link to it from another page (`#link-<slug>`). */
export function linkRowId(slug: string): string {
  return `link-${slug}`;
}

function LinkRow({ entry, q }: { entry: LinkListEntry; q: string }) {
  return (
    <li id={linkRowId(entry.slug)} class="card link-row" data-search={searchTextOf(entry)}>
      <div class="link-head">
        <a class="link-slug" href={entry.shortUrl}>/{entry.slug}</a>
        {entry.protected && <span class="badge">Protected</span>}
        {entry.title && <bdi class="link-title">{entry.title}</bdi>}
      </div>
      <p class="destination" title={entry.url ?? undefined}>
        {entry.url === null
          ? <span class="muted">Destination hidden: protected by a password</span>
          : entry.url}
      </p>
      {entry.note && <p class="note" title={entry.note}>{entry.note}</p>}
      <div class="link-foot">
        <p class="muted">
          {plural(entry.clicks, "click")} · {entry.maxVisits !== null &&
            `${visitsLeftText(entry.visitsLeft ?? 0, entry.maxVisits)} · `}
          {daysLeft(entry.expiresInDays)} (until{" "}
          <time datetime={entry.expiresAt}>{formatTime(entry.expiresAt)}</time>)
        </p>
        <Island component={DeleteLink} props={q ? { slug: entry.slug, q } : { slug: entry.slug }} />
      </div>
    </li>
  );
}
