import type { LinkStatsReport } from "../lib/stats/link.ts";
import CopyLink from "../islands/CopyLink.tsx";
import {
  formatCount,
  formatTime,
  plural,
  timeLeft,
  visitsLeftText,
} from "../islands/_parts/format.ts";
import { Breakdowns } from "./charts/Breakdown.tsx";
import { ColumnChart } from "./charts/ColumnChart.tsx";
import { Island, ISLANDS_SCRIPT } from "./Island.tsx";
import { Layout } from "./Layout.tsx";
import { TimeBar } from "./TimeBar.tsx";

/** Props of {@linkcode LinkPage}. */
export interface LinkPageProps {
  /** The link's figures. */
  figures: LinkStatsReport;
  /** Its short URL. */
  shortUrl: string;
  /** Its destination, `null` for a protected link (never shown here). */
  url: string | null;
  /** Its note, `""` when none. */
  note: string;
  /** A limited link's visits left of its most, `null` for a link without a limit. */
  visits: { left: number; max: number } | null;
  /** When the page is told (epoch ms). */
  now: number;
  /** A link's whole life (ms), the length of its time bar. */
  lifetimeMs: number;
}

/**
 * One link's own page: its short URL with copy and QR code, where it goes (hidden when
 * protected), its time left, when it was made and last used, and its clicks drawn as the
 * service-wide stats are: per day, by referrer, device and country.
 */
export function LinkPage(
  { figures, shortUrl, url, note, visits, now, lifetimeMs }: LinkPageProps,
) {
  const { slug } = figures;
  const expiresAt = new Date(figures.expiresAt).toISOString();
  const createdAt = new Date(figures.createdAt).toISOString();
  const lastUsedAt = figures.lastUsedAt === null
    ? null
    : new Date(figures.lastUsedAt).toISOString();
  const label = (date: string) => date.slice(5).replace("-", "/");
  const cut = shortUrl.lastIndexOf("/") + 1;
  return (
    <Layout
      title={`/${slug}`}
      description={`Clicks, referrers, devices and countries of the short link /${slug}, and the time it has left.`}
      current="/links"
      scripts={[ISLANDS_SCRIPT]}
    >
      <p class="small">
        <a href="/links">All links</a>
      </p>
      <h1 class="link-heading">
        <span class="url">/{slug}</span>
        {figures.protected && (
          <>
            {" "}
            <span class="badge">Protected</span>
          </>
        )}
      </h1>
      {figures.title && <p class="lead">{figures.title}</p>}
      <section class="card result" aria-label="The link">
        <div class="result-body">
          <div class="stack">
            <p class="short-url">
              <a id="link-short-url" class="url" href={shortUrl}>
                {shortUrl.slice(0, cut)}
                <wbr />
                {shortUrl.slice(cut)}
              </a>
            </p>
            <Island
              component={CopyLink}
              props={{ text: shortUrl, target: "link-short-url", label: "Copy", small: false }}
            />
            <p class="expiry">
              Expires in <strong>{timeLeft(expiresAt, now)}</strong>
              <br />
              <span class="muted small">
                at <time datetime={expiresAt}>{formatTime(expiresAt)}</time>
              </span>
            </p>
            <TimeBar expiresAt={expiresAt} now={now} lifetimeMs={lifetimeMs} />
            <dl class="facts">
              <dt>Goes to</dt>
              {url !== null
                ? <dd class="url">{url}</dd>
                : visits !== null
                ? <dd>Hidden: shown only to whoever opens the link</dd>
                : <dd>Hidden: protected by a password</dd>}
              {note && (
                <>
                  <dt>Note</dt>
                  <dd class="note">{note}</dd>
                </>
              )}
              <dt>Made</dt>
              <dd>
                <time datetime={createdAt}>{formatTime(createdAt)}</time>
              </dd>
              <dt>Last used</dt>
              <dd>
                {lastUsedAt === null
                  ? "Not yet"
                  : <time datetime={lastUsedAt}>{formatTime(lastUsedAt)}</time>}
              </dd>
              {visits !== null && (
                <>
                  <dt>Visits</dt>
                  <dd>{visitsLeftText(visits.left, visits.max)}</dd>
                </>
              )}
            </dl>
          </div>
          <img
            class="qr"
            src={`/api/qr?slug=${encodeURIComponent(slug)}`}
            alt={`QR code of ${shortUrl}`}
            width={160}
            height={160}
          />
        </div>
      </section>
      <dl class="figures">
        <div class="figure">
          <dt>Clicks</dt>
          <dd>{formatCount(figures.clicks)}</dd>
        </div>
        <div class="figure">
          <dt>Clicks today</dt>
          <dd>{formatCount(figures.days.at(-1)?.clicks ?? 0)}</dd>
        </div>
      </dl>
      <div class="grid">
        <section class="card" aria-labelledby="clicks-heading">
          <h2 id="clicks-heading">Clicks per day</h2>
          <ColumnChart
            id="clicks-chart"
            title={`Clicks on /${slug} per day, the last seven days (UTC)`}
            columns={figures.days.map((day) => ({
              label: label(day.date),
              value: day.clicks,
              detail: `${day.date}: ${plural(day.clicks, "click")}`,
            }))}
          />
        </section>
        <Breakdowns
          referrers={figures.referrers}
          devices={figures.devices}
          countries={figures.countries}
        />
      </div>
    </Layout>
  );
}
