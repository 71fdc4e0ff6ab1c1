import { Layout } from "./Layout.tsx";

/** The about page: what the service is, the seven-day rule, and what it counts. */
export function AboutPage() {
  return (
    <Layout
      title="About"
      description="What lapse is: short links that live seven days, what it counts about visits, and what it keeps."
      current="/about"
    >
      <h1>About lapse</h1>
      <section class="card prose">
        <h2>Short links that lapse</h2>
        <p>
          lapse turns a long address into a short link under this site. Following the short link
          takes you to the address. You may choose the link's name, give it a title and a note, and
          protect it with a password that visitors must enter before they are sent on.
        </p>
        <p>
          A link may also open only a few times, for a document or an invitation meant for a few
          people. Such a link shows a page with an Open button, and only pressing it uses one of its
          visits, so a mail scanner or a chat app's preview that merely looks uses nothing. Where it
          goes is shown on no page, to no one, until it is opened.
        </p>
        <h2>Seven days, then gone</h2>
        <p>
          Every link lives seven days from the moment it is made. After that the link, where it
          pointed and its clicks are deleted, and its name is free for someone else. Anyone may
          delete a link sooner from the{" "}
          <a href="/links">links page</a>; no password is needed for that.
        </p>
        <h2>What is counted</h2>
        <p>
          A visit to a short link adds one to its clicks and notes when it was last used. For the
          {" "}
          <a href="/stats">stats</a>, the service also counts, per link and per day, the site the
          visitor came from (its host name only, or “direct”), the kind of device (desktop, mobile,
          tablet, bot or other, from the browser's user agent) and the country (from the network
          address, looked up on this server). Automated visitors count only as bots.
        </p>
        <p>
          No user agent or profile of a visitor is kept: only those counts, and they are deleted
          with the link. Rate limits keep a client's network address for a minute or two, to count
          its requests. The only cookie the service sets is the one that remembers, until the link
          expires, that you entered a protected link's password. The links you make are remembered
          in your own browser's storage, on the start page, and nowhere else.
        </p>
        <h2>For programs</h2>
        <p>
          Everything the pages do is plain HTTP and JSON: see <a href="/docs">the API</a> and{" "}
          <a href="/changelog">the changelog</a>.
        </p>
      </section>
    </Layout>
  );
}
