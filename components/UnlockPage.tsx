import { Layout } from "./Layout.tsx";

/** Props of {@linkcode UnlockPage}. */
export interface UnlockPageProps {
  /** The protected link's slug. */
  slug: string;
  /** Why the last attempt failed, if it did. */
  error?: string;
}

/**
 * The page a locked link answers with: a plain form posting the password to `/api/unlock`,
 * which works without JavaScript.
 */
export function UnlockPage({ slug, error }: UnlockPageProps) {
  return (
    <Layout title="Protected link" scripts={["/static/build/unlock.js"]}>
      <section class="card">
        <h1>Protected link</h1>
        <p>
          The link <code>/{slug}</code> is protected by a password.
        </p>
        <form method="post" action="/api/unlock" class="stack" data-island="unlock">
          <input type="hidden" name="slug" value={slug} />
          <label for="unlock-pass">Password</label>
          <input
            id="unlock-pass"
            name="pass"
            type="password"
            required
            maxLength={128}
            autocomplete="current-password"
            autofocus
            aria-describedby={error ? "unlock-error" : undefined}
          />
          <p id="unlock-error" class="error" role="alert" hidden={!error}>
            {error ?? ""}
          </p>
          <button type="submit">Unlock</button>
        </form>
      </section>
    </Layout>
  );
}
