import type { LinkView } from "../../lib/links/record.ts";
import { CopyButton } from "./CopyButton.tsx";
import { daysLeft, formatTime } from "./format.ts";

/** Props of {@linkcode LinkCard}. */
export interface LinkCardProps {
  /** The link just made. */
  link: LinkView;
}

/** A new link: the short URL as text and as a link, a copy button, its expiry and its QR code. */
export function LinkCard({ link }: LinkCardProps) {
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
            <a id={id} href={link.shortUrl}>
              {link.shortUrl.slice(0, cut)}
              <wbr />
              {link.shortUrl.slice(cut)}
            </a>
          </p>
          <p>
            <CopyButton text={link.shortUrl} target={id} />
          </p>
          <dl class="facts">
            {link.title && (
              <>
                <dt>Title</dt>
                <dd>{link.title}</dd>
              </>
            )}
            <dt>Goes to</dt>
            {link.url === null
              ? <dd>Hidden: protected by a password</dd>
              : <dd class="destination">{link.url}</dd>}
            <dt>Expires</dt>
            <dd>
              <time datetime={link.expiresAt}>{formatTime(link.expiresAt)}</time>{" "}
              ({daysLeft(link.expiresInDays)})
            </dd>
          </dl>
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
