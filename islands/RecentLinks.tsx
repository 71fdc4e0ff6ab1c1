import { useEffect } from "preact/hooks";
import { formatTime, timeLeft } from "./_parts/format.ts";
import { forgetRecent, isWebAddress, loadRecent, useRecentLinks } from "./_parts/recent.ts";

/** Props of the recent links island: none, the list lives in this browser. */
export type RecentLinksProps = Record<string, unknown>;

/**
 * The links made in this browser that have not expired, newest first. The server knows
 * nothing of them, so it renders nothing; the list appears once the island has read storage.
 */
export default function RecentLinks(_props: RecentLinksProps) {
  const links = useRecentLinks();
  useEffect(() => loadRecent(), []);
  if (links.length === 0) return null;
  const now = Date.now();
  return (
    <section class="card" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Made in this browser</h2>
      <ul class="recent">
        {links.map((link) => (
          <li key={link.slug}>
            {isWebAddress(link.shortUrl)
              ? <a href={link.shortUrl}>{link.shortUrl}</a>
              : <span>{link.shortUrl}</span>}{" "}
            <span class="muted">
              <time datetime={link.expiresAt}>{formatTime(link.expiresAt)}</time>{" "}
              ({timeLeft(link.expiresAt, now)} left)
            </span>
          </li>
        ))}
      </ul>
      <button type="button" class="secondary" onClick={forgetRecent}>Forget this list</button>
    </section>
  );
}
