/**
 * Keeping forms usable without sight or a mouse: focus that follows what an island shows, and
 * fields tied to the error about them.
 * @module
 */
import { useEffect, useRef, useState } from "preact/hooks";

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

/**
 * The field a refusal's sentence is about, of `fields`: the service's sentences begin with the
 * field's name (`url must use http or https`, `slug "x" is already taken`). `null` for any other.
 */
export function fieldNamed(sentence: string, fields: readonly string[]): string | null {
  const first = /^[a-z][a-zA-Z]*/.exec(sentence)?.[0];
  return first !== undefined && fields.includes(first) ? first : null;
}
