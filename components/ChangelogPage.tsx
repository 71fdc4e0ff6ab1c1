import type { Release } from "../lib/version/changelog.ts";
import { Layout } from "./Layout.tsx";

/** Props of {@linkcode ChangelogPage}. */
export interface ChangelogPageProps {
  /** Every release, newest first. */
  releases: readonly Release[];
}

const KINDS = [["added", "Added"], ["changed", "Changed"], ["fixed", "Fixed"]] as const;

/** Every release, newest first, with what it added, changed and fixed. */
export function ChangelogPage({ releases }: ChangelogPageProps) {
  return (
    <Layout
      title="Changelog"
      description="Every release of lapse, the link shortener whose links live seven days, and what each changed."
      current="/changelog"
    >
      <h1>Changelog</h1>
      <p class="lead">
        Every release, newest first; also as JSON at <a href="/api/changelog">/api/changelog</a>.
      </p>
      {releases.map((release) => (
        <section
          key={release.version}
          class="card prose"
          aria-labelledby={`release-${release.version}`}
        >
          <h2 id={`release-${release.version}`}>
            {release.version} · {release.title}
          </h2>
          <p class="muted">
            Released <time datetime={release.date}>{release.date}</time>
          </p>
          {KINDS.map(([kind, heading]) =>
            release.changes[kind].length > 0 && (
              <div key={kind}>
                <h3>{heading}</h3>
                <ul>
                  {release.changes[kind].map((change) => <li key={change}>{change}</li>)}
                </ul>
              </div>
            )
          )}
        </section>
      ))}
    </Layout>
  );
}
