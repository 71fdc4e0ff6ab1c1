import type { Stats } from "../lib/stats/types.ts";
import { plural } from "../islands/_parts/format.ts";
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
              href: link.shortUrl,
            }))}
          />
        </section>
        <section class="card" aria-labelledby="referrers-heading">
          <h2 id="referrers-heading">Referrers</h2>
          <BarList
            label="Clicks by referring site"
            empty="No clicks yet."
            items={stats.referrers.map(({ name, clicks }) => ({ name, value: clicks }))}
          />
        </section>
        <section class="card" aria-labelledby="devices-heading">
          <h2 id="devices-heading">Devices</h2>
          <BarList
            label="Visits by device"
            empty="No visits yet."
            items={stats.devices.map(({ name, clicks }) => ({ name, value: clicks }))}
          />
        </section>
        <section class="card" aria-labelledby="countries-heading">
          <h2 id="countries-heading">Countries</h2>
          <BarList
            label="Clicks by country"
            empty="No clicks yet."
            items={stats.countries.map(({ name, clicks }) => ({ name, value: clicks }))}
          />
        </section>
      </div>
    </Layout>
  );
}
