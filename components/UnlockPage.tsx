import UnlockForm from "../islands/UnlockForm.tsx";
import { Island, ISLANDS_SCRIPT } from "./Island.tsx";
import { Layout } from "./Layout.tsx";

/** Why a post to the unlock form cannot be answered with the form again. */
export type UnlockProblem = "not-found" | "not-protected";

/** Props of {@linkcode UnlockPage}. */
export interface UnlockPageProps {
  /** The protected link's slug. */
  slug: string;
  /** Why the last attempt failed, if it did. */
  error?: string;
  /** Set when there is no password to ask for: no live link has the slug, or it has none. */
  problem?: UnlockProblem;
}

/**
 * The page a locked link answers with: a form posting the password to `/api/unlock`, which works
 * without JavaScript and, with it, unlocks in place (the unlock island). A post for a slug that
 * names no live link, or an open one, gets the reason instead of the form.
 */
export function UnlockPage({ slug, error, problem }: UnlockPageProps) {
  if (problem) return <NoPasswordPage slug={slug} problem={problem} />;
  return (
    <Layout title={error ? "Error: Protected link" : "Protected link"} scripts={[ISLANDS_SCRIPT]}>
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

function NoPasswordPage({ slug, problem }: { slug: string; problem: UnlockProblem }) {
  const notFound = problem === "not-found";
  return (
    <Layout title={notFound ? "Error: Not found" : "Error: Not protected"}>
      <section class="card">
        <h1>{notFound ? "Not found" : "Not protected"}</h1>
        {notFound
          ? (
            <p>
              No live link is called <code>/{slug}</code>: it may have expired, or been deleted.
            </p>
          )
          : (
            <p>
              The link <code>/{slug}</code> has no password:{" "}
              <a href={`/${encodeURIComponent(slug)}`}>follow it</a>.
            </p>
          )}
        <p>
          <a href="/">Make a short link</a>
        </p>
      </section>
    </Layout>
  );
}
