import UnlockForm from "../islands/UnlockForm.tsx";
import { Island, ISLANDS_SCRIPT } from "./Island.tsx";
import { Layout } from "./Layout.tsx";

/** Props of {@linkcode UnlockPage}. */
export interface UnlockPageProps {
  /** The protected link's slug. */
  slug: string;
  /** Why the last attempt failed, if it did. */
  error?: string;
}

/**
 * The page a locked link answers with: a form posting the password to `/api/unlock`, which works
 * without JavaScript and, with it, unlocks in place (the unlock island).
 */
export function UnlockPage({ slug, error }: UnlockPageProps) {
  return (
    <Layout title="Protected link" scripts={[ISLANDS_SCRIPT]}>
      <section class="card">
        <h1>Protected link</h1>
        <p>
          The link <code>/{slug}</code> is protected by a password.
        </p>
        <Island component={UnlockForm} props={{ slug, error: error ?? null }} />
      </section>
    </Layout>
  );
}
