/**
 * The service's wordmark: an hourglass ring running out, then the name, drawn in SVG so it is
 * as sharp at any size and takes the text colour of light and dark alike.
 */
export function Wordmark() {
  return (
    <svg
      class="wordmark"
      viewBox="0 0 112 32"
      width="112"
      height="32"
      aria-hidden="true"
      focusable="false"
    >
      {/* The ring: what is left of a week, an arc that stops short of closing. */}
      <circle class="wordmark-track" cx="16" cy="16" r="11" fill="none" stroke-width="4" />
      <path
        class="wordmark-arc"
        d="M16 5a11 11 0 1 1-10.4 7.4"
        fill="none"
        stroke-width="4"
        stroke-linecap="round"
      />
      <circle class="wordmark-dot" cx="16" cy="16" r="3" />
      <text x="34" y="23" class="wordmark-text">lapse</text>
    </svg>
  );
}
