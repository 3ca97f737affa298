/**
 * The site's one icon set (docs/design.md, "Icons"): 24-unit strokes and shapes in the text's colour,
 * drawn once here and used by Astro pages (components/Icon.astro), React islands (islands/shared/Icon.tsx)
 * and the scripts that build markup themselves (`iconSvg`). No emoji: Debian's Chromium, and many phones,
 * draw some as empty boxes. An icon is always decoration: the control or text beside it names it.
 */
export const ICONS = {
  previous: '<path d="M6 5v14" stroke-width="2.25"/><path d="M18.5 5.5 8.5 12l10 6.5z" fill="currentColor"/>',
  next: '<path d="M18 5v14" stroke-width="2.25"/><path d="M5.5 5.5 15.5 12l-10 6.5z" fill="currentColor"/>',
  play: '<path d="M8 5.2v13.6L19 12z" fill="currentColor" stroke-linejoin="round"/>',
  pause:
    '<rect x="6.5" y="5" width="3.75" height="14" rx="1" fill="currentColor" stroke="none"/><rect x="13.75" y="5" width="3.75" height="14" rx="1" fill="currentColor" stroke="none"/>',
  repeat: '<path d="M4.5 12a7.5 7.5 0 1 0 2.2-5.3"/><path d="M4.5 4v4.5H9"/>',
  settings:
    '<path d="M4 7h8M16 7h4M4 17h3M11 17h9"/><circle cx="14" cy="7" r="2.25"/><circle cx="9" cy="17" r="2.25"/>',
  close: '<path d="m6 6 12 12M18 6 6 18"/>',
  lock: '<rect x="5" y="10.5" width="14" height="9.5" rx="2"/><path d="M8 10.5V8a4 4 0 0 1 8 0v2.5"/>',
  star: '<path d="m12 3.5 2.6 5.4 5.9.8-4.3 4.1 1 5.8L12 16.8l-5.2 2.8 1-5.8-4.3-4.1 5.9-.8z"/>',
  starFilled:
    '<path d="m12 3.5 2.6 5.4 5.9.8-4.3 4.1 1 5.8L12 16.8l-5.2 2.8 1-5.8-4.3-4.1 5.9-.8z" fill="currentColor"/>',
  download: '<path d="M12 4v11M7 10.5l5 5 5-5M5 19.5h14"/>',
  check: '<path d="m5 12.5 4.5 4.5L19 7.5"/>',
  trash: '<path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 12.5h9l1-12.5"/>',
  chevronLeft: '<path d="m14.5 6-6 6 6 6"/>',
  chevronRight: '<path d="m9.5 6 6 6-6 6"/>',
  up: '<path d="M12 19V5M6.5 10.5 12 5l5.5 5.5"/>',
  down: '<path d="M12 5v14M6.5 13.5 12 19l5.5-5.5"/>',
  grip: '<circle cx="9" cy="6" r="1.4" fill="currentColor" stroke="none"/><circle cx="15" cy="6" r="1.4" fill="currentColor" stroke="none"/><circle cx="9" cy="12" r="1.4" fill="currentColor" stroke="none"/><circle cx="15" cy="12" r="1.4" fill="currentColor" stroke="none"/><circle cx="9" cy="18" r="1.4" fill="currentColor" stroke="none"/><circle cx="15" cy="18" r="1.4" fill="currentColor" stroke="none"/>',
  menu: '<path d="M4 7h16M4 12h16M4 17h16"/>',
  eye: '<path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z"/><circle cx="12" cy="12" r="2.75"/>',
  search: '<circle cx="10.5" cy="10.5" r="6"/><path d="m15 15 5 5"/>',
  info: '<circle cx="12" cy="12" r="8.5"/><path d="M12 11v5.5M12 7.75v.01"/>',
  plus: '<path d="M12 5v14M5 12h14"/>',
  external: '<path d="M14 4.5h5.5V10M19.5 4.5 11 13M17 14v5.5H4.5V7H10"/>',
  volume:
    '<path d="M4.5 9.5h3l4.5-4v13l-4.5-4h-3z" fill="currentColor"/><path d="M15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11"/>',
} as const;

export type IconName = keyof typeof ICONS;

/** The attributes every icon's <svg> carries. */
export const ICON_ATTRIBUTES = {
  viewBox: '0 0 24 24',
  width: '24',
  height: '24',
  fill: 'none',
  stroke: 'currentColor',
  'stroke-width': '2',
  'stroke-linecap': 'round',
  'stroke-linejoin': 'round',
  'aria-hidden': 'true',
  focusable: 'false',
} as const;

/** An icon as markup, for scripts that build their own (offline downloads, phrase marks). */
export function iconSvg(name: IconName, className = 'icon'): string {
  const attributes = Object.entries(ICON_ATTRIBUTES)
    .map(([key, value]) => `${key}="${value}"`)
    .join(' ');
  return `<svg class="${className}" ${attributes}>${ICONS[name]}</svg>`;
}
