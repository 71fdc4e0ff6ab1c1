import BulkForm, { type BulkFormProps } from "../islands/BulkForm.tsx";
import CreateForm, { type CreateFormProps } from "../islands/CreateForm.tsx";
import RecentLinks from "../islands/RecentLinks.tsx";
import { Island, ISLANDS_SCRIPT } from "./Island.tsx";
import { Layout } from "./Layout.tsx";

/** Props of {@linkcode HomePage}. */
export interface HomePageProps {
  /** The create form's state. */
  create: CreateFormProps;
  /** The bulk form's state. */
  bulk: BulkFormProps;
}

/**
 * The start page: one destination field and its button first (the rest behind "More options"),
 * a made link's card above them, then bulk behind its own disclosure, and the links made in
 * this browser.
 */
export function HomePage({ create, bulk }: HomePageProps) {
  const bulkUsed = Boolean(bulk.error || bulk.rows || bulk.urls);
  // A refused post without JavaScript comes back to this page: the title says so first.
  const title = create.error || bulk.error ? "Error: Shorten a link" : "Shorten a link";
  return (
    <Layout
      title={title}
      description="Make a short link that lives seven days: paste an address, get a short URL, a QR code and its clicks. No account needed."
      current="/"
      scripts={[ISLANDS_SCRIPT]}
    >
      <h1>Short links for one week</h1>
      <p class="lead">
        Paste a long address. The short link works for seven days, then it is gone.
      </p>
      <Island component={CreateForm} props={create} />
      <details class="card bulk" open={bulkUsed}>
        <summary>Several links at once</summary>
        <Island component={BulkForm} props={bulk} />
      </details>
      <Island component={RecentLinks} props={{}} />
    </Layout>
  );
}
