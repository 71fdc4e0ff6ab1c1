import { useState } from "preact/hooks";
import type { LinkView } from "../lib/links/record.ts";
import { fieldAria, fieldNamed, useFocusAfterRender } from "./_parts/aria.ts";
import { callApi, errorSentence } from "./_parts/http.ts";
import { LinkCard } from "./_parts/LinkCard.tsx";
import { rememberLinks } from "./_parts/recent.ts";
import { SlugHint } from "./_parts/SlugHint.tsx";
import { shownError } from "./_parts/format.ts";

/** Values to show in the form's fields (after a refused post, or a slug from the 404 page). */
export interface CreateFormValues {
  url?: string;
  slug?: string;
  title?: string;
  note?: string;
  /** The visit limit as typed. */
  maxVisits?: string;
  /** A password was given with the refused post: it is not sent back, so it must be typed again. */
  passDropped?: boolean;
}

/** Props of the create form island. */
export interface CreateFormProps {
  /** The custom slug rule, as a regular expression source. */
  slugPattern: string;
  /** Values to fill in. */
  values?: CreateFormValues;
  /** Why the last post was refused. */
  error?: string | null;
  /** The field the refusal is about, when it names one (`url`, `slug`...). */
  errorField?: string | null;
  /** The link the last post made. */
  created?: LinkView | null;
}

// The fields a refusal may be about.
const FIELDS = ["url", "slug", "title", "note", "pass", "maxVisits"];

/**
 * The create form: a plain form posting to `/api/create`, which with JavaScript posts JSON
 * instead, shows the new link's card without leaving the page, remembers the link in this
 * browser, and says as the custom slug is typed whether it is free.
 */
export default function CreateForm(props: CreateFormProps) {
  const { slugPattern, values = {} } = props;
  const [link, setLink] = useState(props.created ?? null);
  const [error, setError] = useState(props.error ?? null);
  const [errorField, setErrorField] = useState(props.errorField ?? null);
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState({
    url: values.url ?? "",
    slug: values.slug ?? "",
    title: values.title ?? "",
  });
  const update = (event: Event) => {
    const { name, value } = event.currentTarget as HTMLInputElement;
    setFields((current) => ({ ...current, [name]: value }));
  };
  const focusLater = useFocusAfterRender();
  const aria = (name: string, ...hints: string[]) =>
    fieldAria(name, { id: "create-error", field: errorField }, ...hints);

  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setBusy(true);
    const body: Record<string, unknown> = Object.fromEntries(new FormData(form));
    // JSON carries the limit as a number; a blank field is none. A number field's value is a
    // number from `min` up or blank: the browser submits nothing else.
    body.maxVisits = +(body.maxVisits as string) || undefined;
    const answer = await callApi("POST", "/api/create", body);
    setBusy(false);
    if (answer.status !== 201) {
      const sentence = errorSentence(answer);
      setErrorField(fieldNamed(sentence, FIELDS));
      focusLater("create-error");
      return setError(sentence);
    }
    setErrorField(null);
    const created = answer.body as LinkView;
    focusLater("result-heading");
    setError(null);
    setLink(created);
    // The address said which link the page was for (`?made=`, `?slug=`, a refused post's
    // `/api/create`); a reload of it now would show or send something else than this page.
    history.replaceState(null, "", "/");
    rememberLinks([created]);
    form.reset();
    (form.elements.namedItem("note") as HTMLTextAreaElement).value = "";
    (form.elements.namedItem("maxVisits") as HTMLInputElement).value = "";
    setFields({ url: "", slug: "", title: "" });
  }

  return (
    <>
      {link && <LinkCard link={link} />}
      <form method="post" action="/api/create" class="card stack" onSubmit={submit}>
        <div class="field">
          <label for="create-url">Destination</label>
          <input
            id="create-url"
            name="url"
            type="text"
            inputMode="url"
            autocomplete="url"
            required
            maxLength={4096}
            placeholder="https://example.com/a/long/path"
            // Come to claim a name (the 404 page's link fills it in): the destination is next.
            autofocus={!!values.slug && !values.url}
            value={fields.url}
            onInput={update}
            {...aria("url")}
          />
        </div>
        <div class="field">
          <label for="create-slug">Custom name (optional)</label>
          <input
            id="create-slug"
            name="slug"
            type="text"
            autocomplete="off"
            spellcheck={false}
            maxLength={48}
            value={fields.slug}
            onInput={update}
            {...aria("slug", "create-slug-hint")}
          />
          <SlugHint id="create-slug-hint" slug={fields.slug} pattern={slugPattern} />
        </div>
        <div class="field">
          <label for="create-title">Title (optional)</label>
          <input
            id="create-title"
            name="title"
            type="text"
            maxLength={200}
            value={fields.title}
            onInput={update}
            {...aria("title")}
          />
        </div>
        <div class="field">
          <label for="create-note">Note (optional)</label>
          {/* Uncontrolled: its text is the server's value, and a reset empties what was typed. */}
          <textarea id="create-note" name="note" rows={2} maxLength={500} {...aria("note")}>
            {values.note ?? ""}
          </textarea>
        </div>
        <div class="field">
          <label for="create-pass">Password (optional)</label>
          <input
            id="create-pass"
            name="pass"
            type="password"
            autocomplete="new-password"
            maxLength={128}
            {...aria("pass", "create-pass-help")}
          />
          <p id="create-pass-help" class="hint muted">
            {values.passDropped
              ? "Type it again: a refused form does not send it back."
              : "Visitors must enter it before they are sent on."}
          </p>
        </div>
        <div class="field">
          <label for="create-max-visits">Opens at most N times (optional)</label>
          <input
            id="create-max-visits"
            name="maxVisits"
            type="number"
            min={1}
            max={10000}
            value={values.maxVisits}
            {...aria("maxVisits")}
          />
        </div>
        {error && (
          <p id="create-error" class="error" role="alert" tabIndex={-1}>{shownError(error)}</p>
        )}
        <div>
          <button type="submit" disabled={busy}>{busy ? "Shortening…" : "Shorten"}</button>
        </div>
      </form>
    </>
  );
}
