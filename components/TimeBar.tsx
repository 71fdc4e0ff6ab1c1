/** Props of {@linkcode TimeBar}. */
export interface TimeBarProps {
  /** The deadline, ISO 8601. */
  expiresAt: string;
  /** Now (epoch ms). */
  now: number;
  /** A link's whole life (ms): a full bar. */
  lifetimeMs: number;
}

/**
 * A thin bar of a link's life, filled with the part still left. Drawn as SVG with attributes
 * (the style policy allows no inline style); decoration beside the time left said in words.
 */
export function TimeBar({ expiresAt, now, lifetimeMs }: TimeBarProps) {
  const left = Math.min(1, Math.max(0, (Date.parse(expiresAt) - now) / lifetimeMs));
  return (
    <svg
      class="time-bar"
      viewBox="0 0 100 4"
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <rect class="track" x="0" y="0" width="100" height="4" />
      <rect class="left" x="0" y="0" width={Math.round(left * 1000) / 10} height="4" />
    </svg>
  );
}
