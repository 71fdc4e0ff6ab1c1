import { CopyButton } from "./_parts/CopyButton.tsx";

/** Props of the copy island. */
export interface CopyLinkProps {
  /** The short URL to copy. */
  text: string;
  /** Id of the element showing it, selected where the clipboard is out of reach. */
  target: string;
  /** The button's name, beginning with "Copy". */
  label: string;
  /** The list's smaller button (default), or the full-sized one of a page about one link. */
  small?: boolean;
}

/** A copy button for a short URL shown on a server-rendered page (a row of /links, say). */
export default function CopyLink({ text, target, label, small = true }: CopyLinkProps) {
  return <CopyButton text={text} target={target} label={label} small={small} />;
}
