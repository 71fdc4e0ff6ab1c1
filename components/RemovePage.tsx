import { Layout } from "./Layout.tsx";

/** Props of {@linkcode RemovePage}. */
export interface RemovePageProps {
  /** The link to delete. */
  slug: string;
  /** Its title, if it has one. */
  title: string;
  /** The list's filter to return to, `""` for none. */
  q?: string;
}

/** The question asked before a link is deleted without JavaScript. */
export function RemovePage({ slug, title, q = "" }: RemovePageProps) {
  const back = q ? `/links?${new URLSearchParams({ q })}` : "/links";
  return (
    <Layout
      title={`Delete /${slug}`}
      description="Confirm that this short link is to be deleted now."
      current="/links"
    >
      <section class="card stack">
        <h1>Delete /{slug}?</h1>
        {title && <p>{title}</p>}
        <p>The link stops working at once, and its clicks are gone. This cannot be undone.</p>
        <form method="post" action="/links/remove" class="inline">
          <input type="hidden" name="slug" value={slug} />
          <input type="hidden" name="confirm" value="yes" />
          {q && <input type="hidden" name="q" value={q} />}
          <button type="submit" class="danger">Yes, delete /{slug}</button>
          <a class="button secondary" href={back}>Cancel</a>
        </form>
      </section>
    </Layout>
  );
}
