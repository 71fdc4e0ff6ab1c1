import { useEffect, useRef, useState } from "preact/hooks";
import { callApi, errorSentence } from "./_parts/http.ts";
import { shownError } from "./_parts/format.ts";
import { forgetLink } from "./_parts/recent.ts";
import { removedCount } from "./_parts/removed.ts";

/** Props of the delete island. */
export interface DeleteLinkProps {
  /** The link to delete. */
  slug: string;
  /** The list's filter (`?q=`), kept by the page a delete without JavaScript returns to. */
  q?: string;
}

type Step = "idle" | "confirm" | "busy" | "done";

/**
 * Deletes one link: a plain form posting to `/links/remove` (which asks first on a page of its
 * own); with JavaScript it asks inline, then sends `DELETE /api/remove?slug=`.
 */
export default function DeleteLink({ slug, q = "" }: DeleteLinkProps) {
  const [step, setStep] = useState<Step>("idle");
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const focused = useRef<HTMLButtonElement>(null);
  const done = useRef<HTMLParagraphElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (step === "confirm") asked.current = true;
    if (step === "done") done.current?.focus();
    else if (asked.current && step !== "busy") focused.current?.focus();
  }, [step]);

  async function remove() {
    setStep("busy");
    const answer = await callApi("DELETE", `/api/remove?slug=${encodeURIComponent(slug)}`);
    // 404: it was gone already, which is what was asked for.
    if (answer.status !== 200 && answer.status !== 404) {
      setError(errorSentence(answer));
      return setStep("confirm");
    }
    const row = form.current?.closest<HTMLElement>("[data-search]");
    row?.classList.add("removed");
    // Struck out, and no longer a way to the link; the filter still hides it like any row.
    row?.querySelector("a.link-slug")?.removeAttribute("href");
    removedCount.value++;
    forgetLink(slug);
    setStep("done");
  }

  if (step === "done") {
    return <p ref={done} class="ok" role="status" tabIndex={-1}>Deleted /{slug}</p>;
  }
  return (
    <form
      ref={form}
      method="post"
      action="/links/remove"
      class="delete"
      onSubmit={(event) => {
        event.preventDefault();
        setStep("confirm");
      }}
    >
      <input type="hidden" name="slug" value={slug} />
      {q && <input type="hidden" name="q" value={q} />}
      {step === "idle"
        ? (
          <button
            ref={focused}
            type="submit"
            class="danger quiet"
            aria-label={`Delete /${slug}`}
          >
            Delete
          </button>
        )
        : (
          <span class="confirm">
            <span>Delete /{slug} for good?</span>{" "}
            <button
              ref={focused}
              type="button"
              class="danger"
              onClick={remove}
              disabled={step === "busy"}
            >
              Yes, delete
            </button>{" "}
            <button type="button" class="secondary" onClick={() => setStep("idle")}>
              Cancel
            </button>
            {error && <span class="error" role="alert">{shownError(error)}</span>}
          </span>
        )}
    </form>
  );
}
