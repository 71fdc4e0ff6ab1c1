import { shownError } from "./format.ts";

/** Props of {@linkcode FieldError}. */
export interface FieldErrorProps {
  /** The element's id, which the field's `aria-describedby` names. */
  id: string;
  /** The refusal's sentence, or `null` for none. */
  error: string | null;
  /** Whether the refusal belongs here: under the field it names, or where no field is named. */
  here: boolean;
}

/**
 * A form's refusal, said under the field it is about (which {@linkcode fieldAria} ties to it),
 * focusable so the form can move focus to it.
 */
export function FieldError({ id, error, here }: FieldErrorProps) {
  if (!error || !here) return null;
  return <p id={id} class="error field-error" role="alert" tabIndex={-1}>{shownError(error)}</p>;
}
