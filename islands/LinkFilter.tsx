import { useEffect, useState } from "preact/hooks";
import { plural } from "./_parts/format.ts";
import { removedCount } from "./_parts/removed.ts";

/** Props of the link filter island. */
export interface LinkFilterProps {
  /** The filter the page was rendered with (`?q=`). */
  q: string;
  /** Links on the page, as rendered. */
  total: number;
}

/**
 * Filters the links list: a plain `GET /links?q=` form, which with JavaScript also hides, as
 * the person types, the rows (`[data-search]`) whose slug, title, host and note do not match.
 */
export default function LinkFilter({ q, total: rendered }: LinkFilterProps) {
  const [query, setQuery] = useState(q);
  const [shown, setShown] = useState(rendered);
  // A deleted row loses its `data-search`: it leaves both figures.
  const removed = removedCount.value;
  const total = rendered - removed;
  useEffect(() => {
    const needle = query.trim().toLowerCase();
    let count = 0;
    for (const row of document.querySelectorAll<HTMLElement>("[data-search]")) {
      row.hidden = !(row.dataset.search ?? "").includes(needle);
      if (!row.hidden) count++;
    }
    setShown(count);
  }, [query, removed]);

  return (
    <form method="get" action="/links" role="search" class="filter">
      <label for="links-q">Filter by name, title, host or note</label>
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
        {shown === total ? `${plural(total, "link")} shown` : `${shown} of ${total} shown`}
      </p>
    </form>
  );
}
