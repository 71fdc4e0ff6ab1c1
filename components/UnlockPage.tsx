import UnlockForm from "../islands/UnlockForm.tsx";
import { Island, ISLANDS_SCRIPT } from "./Island.tsx";
import { Layout } from "./Layout.tsx";

/** Why a post to the unlock form cannot be answered with the form again. */
export type UnlockProblem = "bad-slug" | "not-found" | "not-protected";

/** Props of {@linkcode UnlockPage}. */
export interface UnlockPageProps {
  /** The protected link's slug. */
  slug: string;
  /** Why the last attempt failed, if it did. */
  error?: string;
  /**
   * Set when there is no password to ask for: the slug is missing or could name no link, no
   * live link has it, or the link has none.
   */
  problem?: UnlockProblem;
}

/**
 * The page a locked link answers with: a form posting the password to `/api/unlock`, which works
 * without JavaScript and, with it, unlocks in place (the unlock island). A post for a slug that
 * names no live link, or an open one, gets the reason instead of the form.
 */
export function UnlockPage({ slug, error, problem }: UnlockPageProps) {
  if (problem) return <NoPasswordPage slug={slug} problem={problem} reason={error ?? ""} />;
  return (
    <Layout
      title={error ? "Error: Protected link" : "Protected link"}
      description="This short link is protected: enter its password to be sent on."
      scripts={[ISLANDS_SCRIPT]}
    >
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

interface NoPasswordPageProps {
  slug: string;
  problem: UnlockProblem;
  /** The refusal's sentence, said as it is for a slug that could name no link. */
  reason: string;
}

function NoPasswordPage({ slug, problem, reason }: NoPasswordPageProps) {
  const heading =
    { "bad-slug": "No such link", "not-found": "Not found", "not-protected": "Not protected" }[
      problem
    ];
  return (
    <Layout title={`Error: ${heading}`} description="There is no protected link to unlock here.">
      <section class="card">
        <h1>{heading}</h1>
        {problem === "bad-slug" && <p>There is no link to unlock: {reason}.</p>}
        {problem === "not-found" && (
          <p>
            No live link is called <code>/{slug}</code>: it may have expired, or been deleted.
          </p>
        )}
        {problem === "not-protected" && (
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
