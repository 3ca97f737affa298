/**
 * A design token's value (docs/design.md, "Tokens"), for what cannot take `var(--name)`: colours drawn on
 * a canvas (the admin's waveform). Read from the page's own CSS, so the tokens stay in one place.
 */
export function tokenValue(name: `--${string}`): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}
