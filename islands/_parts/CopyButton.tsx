import { useState } from "preact/hooks";

/** Props of {@linkcode CopyButton}. */
export interface CopyButtonProps {
  /** The text to copy. */
  text: string;
  /** Id of the element showing the text, selected when the clipboard is out of reach. */
  target: string;
  /** A smaller button, for a row of a list. */
  small?: boolean;
  /** The button's name where "Copy" alone would not say what (one of many on a page). */
  label?: string;
}

/**
 * Copies `text` with the clipboard API; where that is refused, selects the text on the page and
 * asks the browser to copy the selection, and failing that leaves it selected for the person.
 */
export function CopyButton({ text, target, small = false, label }: CopyButtonProps) {
  const [status, setStatus] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Copied");
    } catch {
      setStatus(copyBySelection(target) ? "Copied" : "Selected: press Ctrl+C or ⌘C to copy");
    }
  }
  return (
    <span class="copy">
      <button
        type="button"
        class={small ? "secondary small" : "secondary"}
        onClick={copy}
        aria-label={label}
        aria-describedby={`${target}-copied`}
      >
        Copy
      </button>
      <span id={`${target}-copied`} class="muted" role="status">{status}</span>
    </span>
  );
}

function copyBySelection(target: string): boolean {
  const element = document.getElementById(target);
  const selection = globalThis.getSelection?.();
  if (!element || !selection) return false;
  selection.selectAllChildren(element);
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}
