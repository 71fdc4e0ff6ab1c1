import { useEffect, useState } from "preact/hooks";
import { plural } from "./_parts/format.ts";
import { removedCount } from "./_parts/removed.ts";

/** Props of the link filter island. */
export interface LinkFilterProps {
  /** The filter the page was rendered with (`?q=`). */
  q: string;
  /** Links on the page, as rendered. */
  total: number;
  /** Whether the page is one of several: other links matching `q` are on other pages. */
  paged: boolean;
}

/**
 * Filters the links list: a plain `GET /links?q=` form that with JavaScript also hides, as the
 * person types, the rows (`[data-search]`) that do not match; where the page cannot hold every
 * match, the count says so and that Filter searches every link.
 */
export default function LinkFilter({ q, total: rendered, paged }: LinkFilterProps) {
  const [query, setQuery] = useState(q);
  // Rows the filter leaves, and of those the ones not deleted: a deleted row is marked
  // `removed`, and leaves both figures.
  const [counts, setCounts] = useState({ matching: rendered, shown: rendered });
  const removed = removedCount.value;
  const total = rendered - removed;
  const needle = query.trim().toLowerCase();
  useEffect(() => {
    let matching = 0;
    let shown = 0;
    for (const row of document.querySelectorAll<HTMLElement>("[data-search]")) {
      row.hidden = !(row.dataset.search ?? "").includes(needle);
      if (row.hidden) continue;
      matching++;
      if (!row.classList.contains("removed")) shown++;
    }
    setCounts({ matching, shown });
  }, [needle, removed]);
  const { matching, shown } = counts;
  // Text other than the page's filter may match links the page does not list: those on other
  // pages, or ones the server's filter left out unless the text holds that filter.
  const server = q.toLowerCase();
  const partial = needle !== server && (paged || !needle.includes(server));
  const among = `the ${paged ? `${rendered} ` : ""}links${q ? ` matching “${q}”` : ""}${
    paged ? " on this page" : ""
  }`;

  return (
    <form method="get" action="/links" role="search" class="filter">
      <label for="links-q">Filter by name, title, destination or note</label>
      <div class="inline">
        <input
          id="links-q"
          name="q"
          type="search"
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
          aria-describedby="links-shown"
        />
        <button type="submit">Filter</button>
      </div>
      <p id="links-shown" class="muted" role="status">
        {partial
          ? `${matching === 0 ? "No match among" : `${shown} shown of`} ${among}. ` +
            "Press Filter to search every link."
          : needle && matching === 0
          ? `No link matches “${query.trim()}”`
          : shown === total
          ? `${plural(total, "link")} shown`
          : `${shown} of ${total} shown`}
      </p>
    </form>
  );
}
