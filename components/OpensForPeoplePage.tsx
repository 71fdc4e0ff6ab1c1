import { Layout } from "./Layout.tsx";

/** Props of {@linkcode OpensForPeoplePage}. */
export interface OpensForPeoplePageProps {
  /** The link's slug. */
  slug: string;
}

/**
 * What a bot or link-preview crawler gets for a link that opens a limited number of times: it
 * says the link opens for people, and names neither its destination nor its title, so a chat
 * app's preview neither uses up a visit nor shows where the link goes.
 */
export function OpensForPeoplePage({ slug }: OpensForPeoplePageProps) {
  return (
    <Layout
      title="A link for people"
      description="A lapse link that opens a limited number of times, for people only."
    >
      <section class="card">
        <h1>This link opens for people</h1>
        <p>
          The link <code>/{slug}</code>{" "}
          opens a limited number of times, and only visits by people count. Open it in a browser to
          be sent on.
        </p>
      </section>
    </Layout>
  );
}
