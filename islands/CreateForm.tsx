import { useRef, useState } from "preact/hooks";
import type { LinkView } from "../lib/links/views.ts";
import { MAX_DESTINATION_LENGTH } from "../lib/links/limits.ts";
import { fieldAria, FieldError, useFocusAfterRender } from "./_parts/aria.tsx";
import { callApi, errorSentence } from "./_parts/http.ts";
import { LinkCard } from "./_parts/LinkCard.tsx";
import { rememberLinks } from "./_parts/recent.ts";
import { MoreFields } from "./_parts/MoreFields.tsx";
import { fieldNamed } from "./_parts/format.ts";

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
  /** When the page was rendered (epoch ms), the time its card's figures are told at. */
  now: number;
}

// The fields a refusal may be about, and those of them behind "More options".
const FIELDS = ["url", "slug", "title", "note", "pass", "maxVisits"];
const MORE_FIELDS = ["slug", "title", "note", "pass", "maxVisits"];

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
  // A link made here is told from this browser's clock; one the page came with, from the server's.
  const [madeAt, setMadeAt] = useState<number | null>(null);
  const more = useRef<HTMLDetailsElement>(null);
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
      const field = fieldNamed(sentence, FIELDS);
      if (field && MORE_FIELDS.includes(field) && more.current) more.current.open = true;
      setErrorField(field);
      focusLater("create-error");
      return setError(sentence);
    }
    setErrorField(null);
    const created = answer.body as LinkView;
    focusLater("result-heading");
    setError(null);
    setLink(created);
    setMadeAt(Date.now());
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
      {link && <LinkCard link={link} now={madeAt ?? props.now} />}
      <form method="post" action="/api/create" class="card hero stack" onSubmit={submit}>
        <div class="field">
          <label for="create-url">Destination</label>
          <div class="shorten-row">
            <input
              id="create-url"
              name="url"
              type="text"
              inputMode="url"
              autocomplete="url"
              required
              maxLength={MAX_DESTINATION_LENGTH}
              placeholder="https://example.com/a/long/path"
              // Come to claim a name (the 404 page's link fills it in): the destination is next.
              autofocus={!!values.slug && !values.url}
              value={fields.url}
              onInput={update}
              {...aria("url")}
            />
            <button type="submit" disabled={busy}>{busy ? "Shortening…" : "Shorten"}</button>
          </div>
          <FieldError id="create-error" error={error} here={errorField === "url"} />
        </div>
        {/* Open by itself when one of its fields holds a value the page brought back. */}
        <details ref={more} class="more" open={moreOpen(values, errorField)}>
          <summary>More options</summary>
          <MoreFields
            fields={fields}
            values={values}
            update={update}
            aria={aria}
            error={error}
            errorField={errorField}
            slugPattern={slugPattern}
          />
        </details>
        <FieldError
          id="create-error"
          error={error}
          here={errorField === null || !FIELDS.includes(errorField)}
        />
      </form>
    </>
  );
}

/**
 * Whether "More options" starts open: a refused post brought back a value in one of its fields,
 * or its refusal is about one of them, or the 404 page filled in a name to claim.
 */
export function moreOpen(values: CreateFormValues, errorField?: string | null): boolean {
  return Boolean(
    values.slug || values.title || values.note || values.maxVisits || values.passDropped ||
      (errorField && MORE_FIELDS.includes(errorField)),
  );
}
