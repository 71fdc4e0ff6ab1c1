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

/** Props of {@linkcode Breakdowns}. */
export interface BreakdownsProps {
  /** Clicks by referring host, most first. */
  referrers: StatsCount[];
  /** Visits by device class, bots included, most first. */
  devices: StatsCount[];
  /** Clicks by country, most first. */
  countries: StatsCount[];
}

/** The three breakdowns the stats pages show: referrers, devices and countries. */
export function Breakdowns({ referrers, devices, countries }: BreakdownsProps) {
  return (
    <>
      <Breakdown
        id="referrers"
        title="Referrers"
        label="Clicks by referring site"
        empty="No clicks yet."
        counts={referrers}
      />
      <Breakdown
        id="devices"
        title="Devices, bots included"
        label="Visits by device, bots included"
        empty="No visits yet."
        counts={devices}
      />
      <Breakdown
        id="countries"
        title="Countries"
        label="Clicks by country"
        empty="No clicks yet."
        counts={countries}
      />
    </>
  );
}
