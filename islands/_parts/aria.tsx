/**
 * Keeping forms usable without sight or a mouse: focus that follows what an island shows, and
 * fields tied to the error about them.
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { shownError } from "./format.ts";

/**
 * A function asking for the element with the given id to be focused once the island has next
 * rendered (it may not exist before). The element needs `tabIndex={-1}` unless it is a control.
 * A submit button disabled while a request runs drops focus to `<body>`: this gives it back.
 */
export function useFocusAfterRender(): (id: string) => void {
  const next = useRef<string | null>(null);
  // Asking renders again, so focus moves even when nothing else changed (the same refusal twice).
  const [, rerender] = useState(0);
  useEffect(() => {
    if (next.current === null) return;
    document.getElementById(next.current)?.focus();
    next.current = null;
  });
  return (id) => {
    next.current = id;
    rerender((count) => count + 1);
  };
}

/** A form's error: the id of the element showing it, and the field it names, if any. */
export interface FieldError {
  id: string;
  field?: string | null;
}

/**
 * The ARIA attributes of the field `name`: invalid and described by the error when the error is
 * about it, and described by `hints` in any case.
 */
export function fieldAria(name: string, error: FieldError, ...hints: string[]) {
  const mine = error.field === name;
  const ids = mine ? [error.id, ...hints] : hints;
  return {
    "aria-invalid": mine ? ("true" as const) : undefined,
    "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
  };
}

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
