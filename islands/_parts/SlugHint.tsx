import { useEffect, useState } from "preact/hooks";
import { callApi } from "./http.ts";
import { MAX_SLUG_LENGTH, MIN_SLUG_LENGTH } from "../../lib/links/limits.ts";

const RULE =
  `Use ${MIN_SLUG_LENGTH} to ${MAX_SLUG_LENGTH} letters, digits, - or _, starting with a letter or digit.`;

/** What is known of a custom slug being typed. */
export type SlugState =
  | "empty"
  | "unchecked"
  | "checking"
  | "available"
  | "taken"
  | "reserved"
  | "invalid"
  | "unknown";

/** Props of {@linkcode SlugHint}. */
export interface SlugHintProps {
  /** Id of the hint, for the field's `aria-describedby`. */
  id: string;
  /** The slug as typed. */
  slug: string;
  /** The custom slug rule, as a regular expression source. */
  pattern: string;
  /** Quiet time after the last keystroke before the service is asked, in ms. */
  delayMs?: number;
}

/**
 * Says whether the slug is invalid at once, and a moment after typing stops whether it is free,
 * taken or reserved, "Checking…" meanwhile. Without JavaScript (and before the island runs) a
 * slug given says the rule, an empty one that it may stay empty.
 */
export function SlugHint({ id, slug, pattern, delayMs = 300 }: SlugHintProps) {
  const state = useSlugState(slug.trim(), pattern, delayMs);
  const name = `“${slug.trim()}”`;
  const text = {
    empty: "Leave it empty for a random name.",
    unchecked: RULE,
    checking: "Checking…",
    available: `${name} is free.`,
    taken: `${name} is taken: choose another.`,
    reserved: `${name} is reserved: choose another.`,
    invalid: RULE,
    unknown: "The name could not be checked now; it is checked when you shorten.",
  }[state];
  const tone = state === "available"
    ? "ok"
    : state === "taken" || state === "reserved" || state === "invalid"
    ? "error"
    : "muted";
  return (
    <p id={id} class={`hint ${tone}`} aria-live="polite" data-state={state}>
      {text}
    </p>
  );
}

function useSlugState(slug: string, pattern: string, delayMs: number): SlugState {
  const [state, setState] = useState<SlugState>(slug === "" ? "empty" : "unchecked");
  useEffect(() => {
    if (slug === "") {
      setState("empty");
      return;
    }
    // A name no link can have needs no question; any other is "Checking…" at once, so no
    // verdict on the name before stands beside it, and the live region speaks twice a pause.
    if (!new RegExp(pattern).test(slug)) {
      setState("invalid");
      return;
    }
    setState("checking");
    let live = true;
    const timer = setTimeout(async () => {
      const answer = await callApi("GET", `/api/check?slug=${encodeURIComponent(slug)}`);
      if (!live) return;
      const body = answer.body as { exists?: boolean; reserved?: boolean } | null;
      if (answer.status !== 200 || !body) return setState("unknown");
      setState(body.reserved ? "reserved" : body.exists ? "taken" : "available");
    }, delayMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [slug, pattern, delayMs]);
  return state;
}
