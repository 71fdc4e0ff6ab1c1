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

/** The start page: the create form, the bulk form, and the links made in this browser. */
export function HomePage({ create, bulk }: HomePageProps) {
  const bulkUsed = Boolean(bulk.error || bulk.rows || bulk.urls);
  // A refused post without JavaScript comes back to this page: the title says so first.
  const title = create.error || bulk.error ? "Error: Shorten a link" : "Shorten a link";
  return (
    <Layout title={title} current="/" scripts={[ISLANDS_SCRIPT]}>
      <h1>Make a short link</h1>
      <p class="lead">Short links live seven days, then they are gone with their clicks.</p>
      <Island component={CreateForm} props={create} />
      <details class="card bulk" open={bulkUsed}>
        <summary>Several links at once</summary>
        <Island component={BulkForm} props={bulk} />
      </details>
      <Island component={RecentLinks} props={{}} />
    </Layout>
  );
}
