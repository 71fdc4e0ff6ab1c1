import type { ComponentChildren } from "preact";
import { Wordmark } from "./Wordmark.tsx";

/** Props of {@linkcode Layout}. */
export interface LayoutProps {
  /** Page title, before the service name. */
  title: string;
  /** What the page is, in a sentence, for search engines and link previews. */
  description: string;
  /** The page's main content. */
  children: ComponentChildren;
  /** Island bundles this page loads, as paths under `/static/`. */
  scripts?: string[];
  /** Stylesheets of this page alone, after the one every page loads. */
  styles?: string[];
  /** Path of the navigation entry to mark as the current page. */
  current?: string;
  /** Whether the page takes the wide column (the API reference, with its contents beside it). */
  wide?: boolean;
}

const NAV = [
  ["/", "Shorten"],
  ["/links", "Links"],
  ["/stats", "Stats"],
  ["/docs", "API"],
  ["/about", "About"],
] as const;

/** The frame of every page: head, navigation, main content and footer. */
export function Layout(
  { title, description, children, scripts = [], styles = [], current, wide = false }: LayoutProps,
) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="description" content={description} />
        <meta name="theme-color" content="#f7f7f5" media="(prefers-color-scheme: light)" />
        <meta name="theme-color" content="#141417" media="(prefers-color-scheme: dark)" />
        <title>{`${title} · lapse`}</title>
        <link rel="stylesheet" href="/static/style.css" />
        {styles.map((href) => <link key={href} rel="stylesheet" href={href} />)}
        <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
        {scripts.map((src) => <script key={src} type="module" src={src} defer />)}
      </head>
      <body class={wide ? "wide" : undefined}>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site-header">
          <a class="brand" href="/">
            <Wordmark />
            <span class="visually-hidden">lapse, make a short link</span>
          </a>
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
            Links live seven days, then they are gone with their clicks.{" "}
            <a href="/changelog">Changelog</a>
          </p>
        </footer>
      </body>
    </html>
  );
}
