import { useState } from "preact/hooks";
import type { LinkView } from "../lib/links/views.ts";
import { fieldAria, FieldError, useFocusAfterRender } from "./_parts/aria.tsx";
import { CopyButton } from "./_parts/CopyButton.tsx";
import { daysLeft, fieldNamed, formatTime, shownError } from "./_parts/format.ts";
import { callApi, errorSentence } from "./_parts/http.ts";
import { rememberLinks } from "./_parts/recent.ts";

/** One row's outcome, as `/api/bulk` answers it (a failed row's input as text). */
export type BulkRow = { ok: true; link: LinkView } | { ok: false; url: string; error: string };

/** Props of the bulk form island. */
export interface BulkFormProps {
  /** Most lines accepted. */
  maxRows: number;
  /** The lines to fill in. */
  urls?: string;
  /** Why the last post was refused. */
  error?: string | null;
  /** The field the refusal is about, when it names one (`urls` or `pass`). */
  errorField?: string | null;
  /** The outcome of the last post, row by row. */
  rows?: BulkRow[] | null;
  /** Why the password must be typed again, when a form's answer dropped one. */
  passHint?: string | null;
}

/**
 * Several links at once, one destination a line: a plain form posting to `/api/bulk`, which
 * with JavaScript posts JSON and lists each row's outcome in place.
 */
export default function BulkForm(props: BulkFormProps) {
  const [rows, setRows] = useState(props.rows ?? null);
  const [error, setError] = useState(props.error ?? null);
  const [errorField, setErrorField] = useState(props.errorField ?? null);
  const [busy, setBusy] = useState(false);
  const focusLater = useFocusAfterRender();
  // A refusal replaces the rows of an earlier post, so they are not taken for its outcome.
  const refuse = (sentence: string, field: string | null = null) => {
    setRows(null);
    setErrorField(field);
    setError(sentence);
    focusLater("bulk-error");
  };

  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    // Too many lines are refused by the service, in the same words as without JavaScript.
    const urls = String(data.get("urls") ?? "").split(/\r?\n/).map((line) => line.trim())
      .filter((line) => line !== "");
    setBusy(true);
    const answer = await callApi("POST", "/api/bulk", { urls, pass: data.get("pass") ?? "" });
    setBusy(false);
    if (answer.status !== 200 || !Array.isArray(answer.body)) {
      const sentence = errorSentence(answer);
      // A 400 that does not name the password is about the lines (`max 10 links per request`).
      const field = fieldNamed(sentence, ["pass"]) ?? (answer.status === 400 ? "urls" : null);
      return refuse(sentence, field);
    }
    const outcome = answer.body as BulkRow[];
    setError(null);
    setErrorField(null);
    setRows(outcome);
    // As the create form: the address may name another outcome (`?bulk=`) or a refused post.
    history.replaceState(null, "", "/");
    // The lines that failed stay, to be mended and sent again; the ones made go.
    (form.elements.namedItem("urls") as HTMLTextAreaElement).value = outcome
      .flatMap((row) => (row.ok ? [] : [row.url])).join("\n");
    focusLater("bulk-results");
    rememberLinks(outcome.flatMap((row) => (row.ok ? [row.link] : [])));
  }

  return (
    <form method="post" action="/api/bulk" class="stack" onSubmit={submit}>
      <div class="field">
        <label for="bulk-urls">Destinations, one a line (at most {props.maxRows})</label>
        <textarea
          id="bulk-urls"
          name="urls"
          rows={5}
          required
          spellcheck={false}
          {...fieldAria("urls", { id: "bulk-error", field: errorField })}
        >
          {props.urls ?? ""}
        </textarea>
        <FieldError id="bulk-error" error={error} here={errorField === "urls"} />
      </div>
      <div class="field">
        <label for="bulk-pass">Password for every link (optional)</label>
        <input
          id="bulk-pass"
          name="pass"
          type="password"
          autocomplete="new-password"
          {...fieldAria(
            "pass",
            { id: "bulk-error", field: errorField },
            ...(props.passHint ? ["bulk-pass-help"] : []),
          )}
        />
        <FieldError id="bulk-error" error={error} here={errorField === "pass"} />
        {props.passHint && <p id="bulk-pass-help" class="hint muted">{props.passHint}</p>}
      </div>
      <FieldError
        id="bulk-error"
        error={error}
        here={errorField !== "urls" && errorField !== "pass"}
      />
      <div>
        <button type="submit" disabled={busy}>{busy ? "Shortening…" : "Shorten all"}</button>
      </div>
      {rows && (
        <ol id="bulk-results" class="bulk-rows" aria-label="Results, row by row" tabIndex={-1}>
          {rows.map((row, i) => <BulkResult key={i} row={row} index={i} />)}
        </ol>
      )}
    </form>
  );
}

function BulkResult({ row, index }: { row: BulkRow; index: number }) {
  if (!row.ok) {
    return (
      <li class="bulk-row failed">
        <span class="badge badge-error">Failed</span> <code>{row.url}</code>
        <span class="error">{shownError(row.error)}</span>
      </li>
    );
  }
  const id = `bulk-short-${index}`;
  return (
    <li class="bulk-row">
      <span class="badge badge-ok">Made</span>{" "}
      <a id={id} class="url" href={row.link.shortUrl}>
        {row.link.shortUrl}
      </a>{" "}
      <CopyButton text={row.link.shortUrl} target={id} />
      {row.link.url && <span class="bulk-destination url">{row.link.url}</span>}
      <span class="muted">
        expires <time datetime={row.link.expiresAt}>{formatTime(row.link.expiresAt)}</time>{" "}
        ({daysLeft(row.link.expiresInDays)})
      </span>
    </li>
  );
}
