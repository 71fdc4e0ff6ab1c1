import type { Stats, StatsCount } from "../lib/stats/types.ts";
import { plural } from "../islands/_parts/format.ts";
import { linkRowId } from "./LinksPage.tsx";
import { BarList } from "./charts/BarList.tsx";
import { ColumnChart } from "./charts/ColumnChart.tsx";
import { Layout } from "./Layout.tsx";

/** Props of {@linkcode StatsPage}. */
export interface StatsPageProps {
  /** The figures to draw. */
  stats: Stats;
}

/** The service-wide stats as pictures: two week charts and four ranked lists. */
export function StatsPage({ stats }: StatsPageProps) {
  const label = (date: string) => date.slice(5).replace("-", "/");
  return (
    <Layout title="Stats" current="/stats">
      <h1>Stats</h1>
      <p class="lead">
        {plural(stats.links, "live link")} and {plural(stats.clicks, "click")}{" "}
        on them. Figures count live links only: an expired or deleted link takes its clicks with it.
      </p>
      <div class="grid">
        <section class="card" aria-labelledby="clicks-heading">
          <h2 id="clicks-heading">Clicks per day</h2>
          <ColumnChart
            id="clicks-chart"
            title="Clicks per day, the last seven days (UTC)"
            columns={stats.days.map((day) => ({
              label: label(day.date),
              value: day.clicks,
              detail: `${day.date}: ${plural(day.clicks, "click")}`,
            }))}
          />
        </section>
        <section class="card" aria-labelledby="links-heading">
          <h2 id="links-heading">Links made per day</h2>
          <ColumnChart
            id="links-chart"
            title="Links made per day, the last seven days (UTC)"
            columns={stats.days.map((day) => ({
              label: label(day.date),
              value: day.links,
              detail: `${day.date}: ${plural(day.links, "link")} made`,
            }))}
          />
        </section>
        <section class="card" aria-labelledby="top-heading">
          <h2 id="top-heading">Most clicked</h2>
          <BarList
            label="Most clicked links"
            empty="No clicks yet."
            items={stats.top.map((link) => ({
              name: link.title ? `/${link.slug} · ${link.title}` : `/${link.slug}`,
              value: link.clicks,
              // To the link in the list: following the short link itself would count a click.
              href: `/links?q=${encodeURIComponent(link.slug)}#${linkRowId(link.slug)}`,
            }))}
          />
        </section>
        <Breakdown
          id="referrers"
          title="Referrers"
          label="Clicks by referring site"
          empty="No clicks yet."
          counts={stats.referrers}
        />
        <Breakdown
          id="devices"
          title="Devices, bots included"
          label="Visits by device, bots included"
          empty="No visits yet."
          counts={stats.devices}
        />
        <Breakdown
          id="countries"
          title="Countries"
          label="Clicks by country"
          empty="No clicks yet."
          counts={stats.countries}
        />
      </div>
    </Layout>
  );
}

/** Props of {@linkcode Breakdown}. */
interface BreakdownProps {
  /** Makes the heading's id. */
  id: string;
  title: string;
  /** The bar list's accessible name. */
  label: string;
  /** What to say when there is nothing to draw. */
  empty: string;
  counts: StatsCount[];
}

/** One breakdown of the stats (referrers, devices, countries) as a card with a bar list. */
function Breakdown({ id, title, label, empty, counts }: BreakdownProps) {
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
