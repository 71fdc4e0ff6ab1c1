import { formatCount, formatTime, timeLeft } from "../islands/_parts/format.ts";
import { Layout } from "./Layout.tsx";

/** Props of {@linkcode OpenPage}. */
export interface OpenPageProps {
  /** The link's slug. */
  slug: string;
  /** Its title, `""` when none: public, as on every page about the link. */
  title: string;
  /** The visits it has left, 1 or more. */
  visitsLeft: number;
  /** Its deadline, ISO 8601 UTC. */
  expiresAt: string;
  /** When the page is told (epoch ms), for the time left. */
  now: number;
  /** The Referer of the page's own GET, `""` for none: the Open's referrer in the figures. */
  from: string;
}

/**
 * What `GET /<slug>` of a link that opens a limited number of times answers, to every client:
 * how many more times it opens and until when, and an Open button, a plain form posting to
 * `/<slug>`. Only that post takes a visit, so a mail scanner, a chat app's preview or a
 * prefetch that only reads the page uses nothing; no script or refresh presses the button.
 */
export function OpenPage({ slug, title, visitsLeft, expiresAt, now, from }: OpenPageProps) {
  return (
    <Layout
      title={`Open /${slug}`}
      description="A lapse link that opens a limited number of times: press Open to be sent on."
    >
      <section class="card stack open-link">
        <h1>
          Open <span class="url">/{slug}</span>
        </h1>
        {title && (
          <p class="lead">
            <bdi>{title}</bdi>
          </p>
        )}
        <p>
          This link opens <strong>{timesMore(visitsLeft)}</strong>, until{" "}
          <time datetime={expiresAt}>{formatTime(expiresAt)}</time>{" "}
          <span class="muted">({timeLeft(expiresAt, now)} left)</span>.
        </p>
        <form method="post" action={`/${encodeURIComponent(slug)}`}>
          <input type="hidden" name="from" value={from} />
          <button type="submit" class="open-button">Open</button>
        </form>
        <p class="muted small">
          Pressing Open uses one of its visits and takes you where it goes, which no page here
          shows. Looking at this page uses nothing.
        </p>
      </section>
    </Layout>
  );
}

/** Visits left as the page says them: `once more`, `twice more`, `3 more times`. */
function timesMore(left: number): string {
  return left === 1 ? "once more" : left === 2 ? "twice more" : `${formatCount(left)} more times`;
}
