import type { ComponentChildren } from "preact";

/** Props of {@linkcode Layout}. */
export interface LayoutProps {
  /** Page title, before the service name. */
  title: string;
  /** The page's main content. */
  children: ComponentChildren;
  /** Island bundles this page loads, as paths under `/static/`. */
  scripts?: string[];
  /** Path of the navigation entry to mark as the current page. */
  current?: string;
}

const NAV = [
  ["/", "Shorten"],
  ["/links", "Links"],
  ["/stats", "Stats"],
  ["/docs", "API"],
  ["/about", "About"],
] as const;

/** The frame of every page: head, navigation, main content and footer. */
export function Layout({ title, children, scripts = [], current }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${title} · lapse`}</title>
        <link rel="stylesheet" href="/static/style.css" />
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        {scripts.map((src) => <script key={src} type="module" src={src} defer />)}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site-header">
          <a class="brand" href="/">lapse</a>
          <nav aria-label="Main">
            <ul>
              {NAV.map(([href, label]) => (
                <li key={href}>
                  <a href={href} aria-current={href === current ? "page" : undefined}>{label}</a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main">{children}</main>
        <footer class="site-footer">
          <p>
            Links live seven days. <a href="/changelog">Changelog</a>
          </p>
        </footer>
      </body>
    </html>
  );
}
