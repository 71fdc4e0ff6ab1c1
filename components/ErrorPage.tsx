import { Layout } from "./Layout.tsx";

/** Props of {@linkcode ErrorPage}. */
export interface ErrorPageProps {
  /** HTTP status. */
  status: number;
  /** The sentence to show. */
  message: string;
}

/** A page for an error on a page path (the store down, say). */
export function ErrorPage({ status, message }: ErrorPageProps) {
  return (
    <Layout title={`Error ${status}`} description="Something went wrong on this lapse page.">
      <section class="card">
        <h1>Something went wrong</h1>
        <p>{message}</p>
        <p>
          <a href="/">Back to the start</a>
        </p>
      </section>
    </Layout>
  );
}
