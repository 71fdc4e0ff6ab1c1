import { formatTime } from "../islands/_parts/format.ts";
import { Layout } from "./Layout.tsx";

/** What the store said of the missing name, when it looked. */
export type MissingLink =
  | {
    kind: "expired";
    slug: string;
    expiresAt: string;
    /** The destination; `null` when withheld (a protected or limited link). */
    url: string | null;
    /** Whether a password guarded it. */
    protected: boolean;
    /** Whether a new link may take the name (an old one may be shorter than custom slugs). */
    claimable: boolean;
  }
  | {
    kind: "used-up";
    slug: string;
    /** Whether a password guarded it. */
    protected: boolean;
    /** Whether a new link may take the name. */
    claimable: boolean;
  }
  | { kind: "free"; slug: string }
  | { kind: "none" };

/** Props of {@linkcode NotFoundPage}. */
export interface NotFoundPageProps {
  /** The path asked for. */
  path: string;
  /** What the store knows of it; `none` when the path is not a slug. */
  missing: MissingLink;
}

/**
 * The 404 page: says where an expired link pointed, that a link was used up by its last visit,
 * or that the name is free to claim.
 */
export function NotFoundPage({ path, missing }: NotFoundPageProps) {
  return (
    <Layout
      title="Not found"
      description="No live link or page has this address on lapse; an expired link says where it pointed."
    >
      <section class="card">
        <h1>Not found</h1>
        {missing.kind === "expired" && (
          <>
            <p>
              The link <code>/{missing.slug}</code> expired on{" "}
              <time datetime={missing.expiresAt}>{formatTime(missing.expiresAt)}</time>.
            </p>
            {missing.url === null ? <Withheld protected={missing.protected} /> : (
              <p>
                It pointed to <code class="destination url">{missing.url}</code>.
              </p>
            )}
            {missing.claimable && (
              <p>
                The name is free again:{" "}
                <a href={`/?slug=${encodeURIComponent(missing.slug)}`}>
                  claim it
                </a>.
              </p>
            )}
          </>
        )}
        {missing.kind === "used-up" && (
          <>
            <p>
              The link <code>/{missing.slug}</code>{" "}
              was used up: it opened as many times as it was made to.
            </p>
            {missing.protected
              ? <p>It was protected by a password, so where it pointed is not shown.</p>
              : <p>Where it pointed was shown only to those who opened it.</p>}
            {missing.claimable && (
              <p>
                The name is free again:{" "}
                <a href={`/?slug=${encodeURIComponent(missing.slug)}`}>claim it</a>.
              </p>
            )}
          </>
        )}
        {missing.kind === "free" && (
          <p>
            No link is called <code>/{missing.slug}</code>. The name is free:{" "}
            <a href={`/?slug=${encodeURIComponent(missing.slug)}`}>claim it</a>.
          </p>
        )}
        {missing.kind === "none" && (
          <p>
            There is no page at <code>{path}</code>.
          </p>
        )}
        <p>
          <a href="/">Make a short link</a>
        </p>
      </section>
    </Layout>
  );
}

/** Why a missing link's destination is not shown: its password, or its limit of visits. */
function Withheld(props: { protected: boolean }) {
  return props.protected
    ? <p>It was protected by a password, so where it pointed is not shown.</p>
    : <p>It opened a limited number of times, so where it pointed is not shown.</p>;
}
