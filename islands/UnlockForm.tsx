import { useEffect, useState } from "preact/hooks";
import { useFocusAfterRender } from "./_parts/aria.tsx";
import { callApi, errorSentence } from "./_parts/http.ts";
import { shownError } from "./_parts/format.ts";
import { MAX_PASSWORD_LENGTH } from "../lib/links/limits.ts";

/** Props of the unlock form island. */
export interface UnlockFormProps {
  /** The protected link's slug. */
  slug: string;
  /** Why the last attempt failed, if it did. */
  error?: string | null;
}

/**
 * The seconds a refusal asks to wait (the service's 429s end `retry in N s`), or 0.
 */
export function retryAfterOf(sentence: string | null): number {
  const match = sentence?.match(/retry in (\d+) s$/);
  return match ? Number(match[1]) : 0;
}

/**
 * The password form of a protected link: a plain form posting to `/api/unlock`, which with
 * JavaScript posts JSON, says inline when the password is wrong or attempts are used up (the
 * password emptied, focus back on it), and goes on to the link once it is unlocked. While
 * attempts are used up, the button waits them out, counting down, and the form says once,
 * politely, when it may be tried again.
 */
export default function UnlockForm({ slug, error: initial = null }: UnlockFormProps) {
  const [error, setError] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  // The refusal holds no longer: said once, not second by second.
  const wait = useCountdown(() => {
    setError(null);
    setNotice("You can try again now.");
  });
  // Counted from here, in the browser: the page as sent (and without JavaScript) keeps its button.
  useEffect(() => wait.start(retryAfterOf(initial)), []);
  const focusLater = useFocusAfterRender();

  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const pass = new FormData(form).get("pass") ?? "";
    setBusy(true);
    setNotice("");
    const answer = await callApi("POST", "/api/unlock", { slug, pass });
    if (answer.status === 200) {
      location.href = `/${encodeURIComponent(slug)}`;
      return;
    }
    setBusy(false);
    const sentence = errorSentence(answer);
    setError(sentence);
    wait.start(retryAfterOf(sentence));
    // Typed again from the start, not after the one refused.
    (form.elements.namedItem("pass") as HTMLInputElement).value = "";
    // Back to the password, which the disabled button took focus from, to type it again.
    focusLater("unlock-pass");
  }

  return (
    <form method="post" action="/api/unlock" class="stack" onSubmit={submit}>
      <input type="hidden" name="slug" value={slug} />
      <label for="unlock-pass">Password</label>
      <input
        id="unlock-pass"
        name="pass"
        type="password"
        required
        maxLength={MAX_PASSWORD_LENGTH}
        autocomplete="current-password"
        autofocus
        aria-describedby={error ? "unlock-error" : undefined}
        aria-invalid={error ? "true" : undefined}
      />
      {error && <p id="unlock-error" class="error" role="alert">{shownError(error)}</p>}
      <div>
        <button type="submit" disabled={busy || wait.left > 0}>
          {busy ? "Unlocking…" : wait.left > 0 ? `Try again in ${clock(wait.left)}` : "Unlock"}
        </button>{" "}
        <span class="muted" role="status">{notice}</span>
      </div>
    </form>
  );
}

/** A wait as the button says it: `42 s`, or `9:47` from a minute up. */
function clock(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Seconds left of a wait, ticking down to 0, then `onEnd`; `start` begins another. */
function useCountdown(onEnd: () => void) {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(0);
  useEffect(() => {
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at < until) return;
      clearInterval(timer);
      onEnd();
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return {
    left: Math.max(0, Math.ceil((until - now) / 1000)),
    start(seconds: number) {
      const at = Date.now();
      setNow(at);
      setUntil(at + seconds * 1000);
    },
  };
}
