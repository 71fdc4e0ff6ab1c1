import type { LinkListEntry } from "../lib/links/views.ts";
import { searchTextOf } from "../lib/links/list.ts";
import CopyLink from "../islands/CopyLink.tsx";
import DeleteLink from "../islands/DeleteLink.tsx";
import LinkFilter from "../islands/LinkFilter.tsx";
import {
  formatTime,
  linkPagePath,
  plural,
  timeLeft,
  visitsLeftText,
} from "../islands/_parts/format.ts";
import { Island, ISLANDS_SCRIPT } from "./Island.tsx";
import { Layout } from "./Layout.tsx";
import { TimeBar } from "./TimeBar.tsx";

/** Props of {@linkcode LinksPage}. */
export interface LinksPageProps {
  /** The links on this page, newest first. */
  entries: LinkListEntry[];
  /** The filter (`?q=`), `""` for none. */
  q: string;
  /** The cursor this page starts at (`?cursor=`), absent on the first page. */
  cursor?: string;
  /** The cursor of the next page, `null` on the last. */
  next: string | null;
  /** When the page is told (epoch ms), for the time left. */
  now: number;
  /** A link's whole life (ms), the length of its time bar. */
  lifetimeMs: number;
  /** The slug just deleted without JavaScript, to confirm it. */
  removed?: string;
}

/**
 * The live links, newest first, a page at a time: one compact row per link with its copy
 * button, the destination's host, its title, clicks and time left; a filter; a quiet delete.
 */
export function LinksPage(props: LinksPageProps) {
  const { entries, q, cursor, next, removed } = props;
  const paged = cursor !== undefined || next !== null;
  const withQuery = (params: Record<string, string>) => {
    const query = new URLSearchParams(q ? { q, ...params } : params).toString();
    return query ? `/links?${query}` : "/links";
  };
  return (
    <Layout
      title="Links"
      description="Every live short link on lapse, newest first: clicks, time left, and where each goes."
      current="/links"
      scripts={[ISLANDS_SCRIPT]}
    >
      <h1>Links</h1>
      <p class="lead">
        Every live link, newest first. Anyone may delete a link; no password is asked.
      </p>
      {removed && <p class="card notice ok" role="status">Deleted /{removed}</p>}
      <Island component={LinkFilter} props={{ q, total: entries.length, paged }} />
      {entries.length === 0
        ? (
          <p class="card">
            {q ? <>No link matches “{q}”.</> : <>No live links yet.</>} <a href="/">Make one</a>.
          </p>
        )
        : (
          <ul class="link-list" aria-label="Live links">
            {entries.map((entry) => <LinkRow key={entry.slug} entry={entry} {...props} />)}
          </ul>
        )}
      {paged && (
        <nav class="pager" aria-label="Pages of links">
          <p>
            {cursor !== undefined && <a href={withQuery({})}>Newest links</a>}
          </p>
          <p>
            {next !== null && <a href={withQuery({ cursor: next })} rel="next">Older links</a>}
          </p>
        </nav>
      )}
    </Layout>
  );
}

/** The id of a link's row in the list, for a link to it from another page (`#link-<slug>`). */
export function linkRowId(slug: string): string {
  return `link-${slug}`;
}

function LinkRow({ entry, q, now, lifetimeMs }: { entry: LinkListEntry } & LinksPageProps) {
  const rowId = linkRowId(entry.slug);
  const urlId = `${rowId}-url`;
  const deleteProps = q ? { slug: entry.slug, q } : { slug: entry.slug };
  return (
    <li id={rowId} class="link-row" data-search={searchTextOf(entry)}>
      <div class="row-name">
        <div class="row-name-top">
          <a class="link-slug url" href={entry.shortUrl}>/{entry.slug}</a>
          <span id={urlId} class="visually-hidden">{entry.shortUrl}</span>
          <Island
            component={CopyLink}
            props={{ text: entry.shortUrl, target: urlId, label: `Copy /${entry.slug}` }}
          />
          {entry.protected && <span class="badge">Protected</span>}
        </div>
        {entry.title && <bdi class="link-title" title={entry.title}>{entry.title}</bdi>}
        {entry.note && <p class="link-note muted" title={entry.note}>{entry.note}</p>}
      </div>
      <div class="row-dest">
        {entry.url === null ? <span class="muted">Destination hidden</span> : (
          <>
            <span class="host" tabIndex={0} aria-describedby={`${rowId}-dest`}>
              {entry.host ?? entry.url}
            </span>
            <span id={`${rowId}-dest`} class="tip url" role="tooltip">{entry.url}</span>
          </>
        )}
      </div>
      <p class="row-clicks">{plural(entry.clicks, "click")}</p>
      <p class="row-time">
        {entry.maxVisits !== null && (
          <>
            {/* A line of its own; the space parts the two facts for text readers too. */}
            <span class="row-visits">{visitsLeftText(entry.visitsLeft ?? 0, entry.maxVisits)}</span>
            {" "}
          </>
        )}
        <span>
          {timeLeft(entry.expiresAt, now)} left
          <span class="visually-hidden">
            , until <time datetime={entry.expiresAt}>{formatTime(entry.expiresAt)}</time>
          </span>
        </span>
        <TimeBar expiresAt={entry.expiresAt} now={now} lifetimeMs={lifetimeMs} />
      </p>
      <div class="row-actions">
        <a href={linkPagePath(entry.slug)} aria-label={`Stats of /${entry.slug}`}>Stats</a>
        <Island component={DeleteLink} props={deleteProps} />
      </div>
    </li>
  );
}
