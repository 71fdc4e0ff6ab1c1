import type { StatsCount } from "../../lib/stats/types.ts";
import { BarList } from "./BarList.tsx";

/** Props of {@linkcode Breakdown}. */
export interface BreakdownProps {
  /** Makes the heading's id. */
  id: string;
  /** The card's heading. */
  title: string;
  /** The bar list's accessible name. */
  label: string;
  /** What to say when there is nothing to draw. */
  empty: string;
  /** The names and their counts, most first. */
  counts: StatsCount[];
}

/** One breakdown of the stats (referrers, devices, countries) as a card with a bar list. */
export function Breakdown({ id, title, label, empty, counts }: BreakdownProps) {
  return (
    <section class="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      <BarList
        label={label}
        empty={empty}
        items={counts.map(({ name, clicks }) => ({ name, value: clicks }))}
      />
    </section>
  );
}
