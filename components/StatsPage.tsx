import type { Stats } from "../lib/stats/types.ts";
import { formatCount, linkPagePath, plural } from "../islands/_parts/format.ts";
import { BarList } from "./charts/BarList.tsx";
import { Breakdowns } from "./charts/Breakdown.tsx";
import { ColumnChart } from "./charts/ColumnChart.tsx";
import { Layout } from "./Layout.tsx";

/** Props of {@linkcode StatsPage}. */
export interface StatsPageProps {
  /** The figures to draw. */
  stats: Stats;
}

/**
 * The service-wide stats: four headline figures, then two week charts and four ranked lists,
 * each with its figures as text beside the picture.
 */
export function StatsPage({ stats }: StatsPageProps) {
  const label = (date: string) => date.slice(5).replace("-", "/");
  const today = stats.days.at(-1) ?? { links: 0, clicks: 0 };
  return (
    <Layout
      title="Stats"
      description="How lapse's live short links are used: links, clicks, clicks per day, top links, referrers, devices and countries."
      current="/stats"
    >
      <h1>Stats</h1>
      <dl class="figures">
        <Figure name="Live links" value={stats.links} />
        <Figure name="Clicks" value={stats.clicks} />
        <Figure name="Clicks today" value={today.clicks} />
        <Figure name="Links made today" value={today.links} />
      </dl>
      <p class="muted">
        Live links only: an expired or deleted link takes its clicks with it. Days are UTC.
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
              // To the link's own page: following the short link itself would count a click.
              href: linkPagePath(link.slug),
            }))}
          />
        </section>
        <Breakdowns
          referrers={stats.referrers}
          devices={stats.devices}
          countries={stats.countries}
        />
      </div>
    </Layout>
  );
}

/** One headline figure, large. */
function Figure({ name, value }: { name: string; value: number }) {
  return (
    <div class="figure">
      <dt>{name}</dt>
      <dd>{formatCount(value)}</dd>
    </div>
  );
}
