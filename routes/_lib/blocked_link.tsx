/**
 * The answer of a short link whose destination host the operator blocked: 410 with a page that
 * says so, for every client (as the 404 page is), and never names the destination.
 * @module
 */
import { Layout } from "../../components/Layout.tsx";
import { renderPage } from "./html.ts";

/** 410 with the page saying the operator of this service disabled the link `slug`. */
export function blockedLinkPage(slug: string): Response {
  return renderPage(
    <Layout
      title="Link disabled"
      description="The operator of this lapse service disabled this link."
    >
      <section class="card">
        <h1>This link was disabled</h1>
        <p>
          The operator of this service disabled{" "}
          <code>/{slug}</code>: the host it points to is blocked here. It does not redirect
          anywhere.
        </p>
        <p>
          <a href="/">Back to the start</a>
        </p>
      </section>
    </Layout>,
    410,
    { "Cache-Control": "no-store" },
  );
}
