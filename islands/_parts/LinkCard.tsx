import type { LinkView } from "../../lib/links/views.ts";
import { CopyButton } from "./CopyButton.tsx";
import { formatTime, linkPagePath, opensText, timeLeft } from "./format.ts";

/** Props of {@linkcode LinkCard}. */
export interface LinkCardProps {
  /** The link just made. */
  link: LinkView;
  /** The time the figures are told at (epoch ms): the server's, on a page it rendered. */
  now: number;
}

/**
 * A new link: the short URL, large, with a copy button; its QR code; the time left and the
 * exact deadline; and a way to its own page with its figures.
 */
export function LinkCard({ link, now }: LinkCardProps) {
  const id = `short-${link.slug}`;
  // On a narrow screen the short URL wraps before its slug, not in the middle of it.
  const cut = link.shortUrl.lastIndexOf("/") + 1;
  return (
    <section class="card result" aria-labelledby="result-heading">
      {/* Focusable, so the create form can move focus here once the link is made. */}
      <h2 id="result-heading" tabIndex={-1}>Your short link</h2>
      <div class="result-body">
        <div class="stack">
          <p class="short-url">
            <a id={id} class="url" href={link.shortUrl}>
              {link.shortUrl.slice(0, cut)}
              <wbr />
              {link.shortUrl.slice(cut)}
            </a>
          </p>
          <p>
            <CopyButton text={link.shortUrl} target={id} />
          </p>
          <p class="expiry">
            Expires in <strong>{timeLeft(link.expiresAt, now)}</strong>
            <br />
            <span class="muted small">
              at <time datetime={link.expiresAt}>{formatTime(link.expiresAt)}</time>
            </span>
          </p>
          <dl class="facts">
            {link.title && (
              <>
                <dt>Title</dt>
                <dd>{link.title}</dd>
              </>
            )}
            <dt>Goes to</dt>
            {link.url !== null
              ? <dd class="url">{link.url}</dd>
              : link.maxVisits !== null
              ? <dd>Hidden: shown only to whoever opens the link</dd>
              : <dd>Hidden: protected by a password</dd>}
            {link.maxVisits !== null && (
              <>
                <dt>Opens</dt>
                <dd>{opensText(link.maxVisits)}, each by pressing its Open button</dd>
              </>
            )}
          </dl>
          <p>
            <a href={linkPagePath(link.slug)}>Clicks and details of /{link.slug}</a>
          </p>
        </div>
        <img
          class="qr"
          src={`/api/qr?slug=${encodeURIComponent(link.slug)}`}
          alt={`QR code of ${link.shortUrl}`}
          width={160}
          height={160}
        />
      </div>
    </section>
  );
}
