import { formatCount } from "../../islands/_parts/format.ts";

/** One row of a {@linkcode BarList}. */
export interface BarItem {
  /** What is counted: a link, a referring host, a device class, a country. */
  name: string;
  /** Its count. */
  value: number;
  /** Where the name links to, if anywhere. */
  href?: string;
}

/** Props of {@linkcode BarList}. */
export interface BarListProps {
  /** The list's accessible name. */
  label: string;
  /** The rows, largest first. */
  items: BarItem[];
  /** What to say when there are no rows. */
  empty: string;
}

/**
 * A ranked list with a bar per row as server-rendered SVG, scaled to the largest count. The
 * names and counts are text; the bars are decoration beside them.
 */
export function BarList({ label, items, empty }: BarListProps) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  const max = Math.max(1, ...items.map((item) => item.value));
  return (
    <ol class="bar-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.name} class="bar-item">
          {/* A name anyone wrote keeps its text direction to itself. */}
          <bdi class="bar-name">
            {item.href ? <a href={item.href}>{item.name}</a> : item.name}
          </bdi>
          <span class="bar-value">{formatCount(item.value)}</span>
          <svg
            class="bar-track"
            viewBox="0 0 100 10"
            preserveAspectRatio="none"
            aria-hidden="true"
            focusable="false"
          >
            <rect
              class="bar"
              x="0"
              y="0"
              width={Math.round((item.value / max) * 1000) / 10}
              height="10"
            />
          </svg>
        </li>
      ))}
    </ol>
  );
}
