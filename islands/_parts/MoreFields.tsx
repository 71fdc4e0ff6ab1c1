import { type fieldAria, FieldError } from "./aria.tsx";
import { SlugHint } from "./SlugHint.tsx";
import {
  MAX_NOTE_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_SLUG_LENGTH,
  MAX_TITLE_LENGTH,
  MAX_VISITS_LIMIT,
} from "../../lib/links/limits.ts";

/** Props of {@linkcode MoreFields}. */
export interface MoreFieldsProps {
  /** The controlled fields' values. */
  fields: { slug: string; title: string };
  /** What the page brought back: the note's text, and whether a password was dropped. */
  values: { note?: string; maxVisits?: string; passDropped?: boolean };
  /** Keeps a controlled field's value as it is typed. */
  update: (event: Event) => void;
  /** The ARIA attributes of a field, by name, with its hints' ids. */
  aria: (name: string, ...hints: string[]) => ReturnType<typeof fieldAria>;
  /** Why the last post was refused. */
  error: string | null;
  /** The field the refusal is about. */
  errorField: string | null;
  /** The custom slug rule, as a regular expression source. */
  slugPattern: string;
}

/**
 * The create form's optional fields, behind "More options": custom name (with its hint), title,
 * note, password and the limit of visits, each with the refusal about it said under it.
 */
export function MoreFields(props: MoreFieldsProps) {
  const { fields, values, update, aria, error, errorField, slugPattern } = props;
  return (
    <div class="more-fields">
      <div class="field">
        <label for="create-slug">Custom name (optional)</label>
        <input
          id="create-slug"
          name="slug"
          type="text"
          autocomplete="off"
          spellcheck={false}
          maxLength={MAX_SLUG_LENGTH}
          value={fields.slug}
          onInput={update}
          {...aria("slug", "create-slug-hint")}
        />
        <FieldError id="create-error" error={error} here={errorField === "slug"} />
        <SlugHint id="create-slug-hint" slug={fields.slug} pattern={slugPattern} />
      </div>
      <div class="field">
        <label for="create-title">Title (optional)</label>
        <input
          id="create-title"
          name="title"
          type="text"
          maxLength={MAX_TITLE_LENGTH}
          value={fields.title}
          onInput={update}
          {...aria("title")}
        />
        <FieldError id="create-error" error={error} here={errorField === "title"} />
      </div>
      <div class="field span">
        <label for="create-note">Note (optional)</label>
        {/* Uncontrolled: its text is the server's value, and a reset empties it. */}
        <textarea
          id="create-note"
          name="note"
          rows={2}
          maxLength={MAX_NOTE_LENGTH}
          {...aria("note")}
        >
          {values.note ?? ""}
        </textarea>
        <FieldError id="create-error" error={error} here={errorField === "note"} />
      </div>
      <div class="field">
        <label for="create-pass">Password (optional)</label>
        <input
          id="create-pass"
          name="pass"
          type="password"
          autocomplete="new-password"
          maxLength={MAX_PASSWORD_LENGTH}
          {...aria("pass", "create-pass-help")}
        />
        <FieldError id="create-error" error={error} here={errorField === "pass"} />
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
          max={MAX_VISITS_LIMIT}
          value={values.maxVisits}
          {...aria("maxVisits", "create-max-visits-help")}
        />
        <FieldError id="create-error" error={error} here={errorField === "maxVisits"} />
        <p id="create-max-visits-help" class="hint muted">
          Each visit is a press of the link's Open button; where it goes stays hidden until then.
        </p>
      </div>
    </div>
  );
}
