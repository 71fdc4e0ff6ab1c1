/** Props of {@linkcode InlineCode}. */
export interface InlineCodeProps {
  /** Text in which `backticks` mark code. */
  text: string;
}

/** Text with its `backticked` parts shown as code; everything stays escaped text. */
export function InlineCode({ text }: InlineCodeProps) {
  const parts = text.split("`");
  return <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
