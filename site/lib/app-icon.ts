/**
 * The app's icon (the favicon's open book on the brand blue), as SVG for the installable app's PNGs
 * (site/pages/icons/[icon].png.ts). A maskable icon fills its whole square and keeps the book inside the
 * middle 80%, the safe zone every launcher's mask leaves whole.
 */
export const BRAND = '#1d4ed8';
export const PAPER = '#fbfaf7';

const BOOK = 'M16 18h12a6 6 0 0 1 6 6v24a5 5 0 0 0-5-5H16zM48 18H36a6 6 0 0 0-2 0.3V48a5 5 0 0 1 5-5h9z';

export function iconSvg(maskable: boolean): string {
  // The book spans 32 of the 64 units; on a maskable icon, scaled so it stays well inside the safe zone.
  const book = maskable
    ? `<g transform="translate(32 33) scale(0.75) translate(-32 -33)"><path d="${BOOK}" fill="#fff"/></g>`
    : `<path d="${BOOK}" fill="#fff"/>`;
  const background = maskable
    ? `<rect width="64" height="64" fill="${BRAND}"/>`
    : `<rect width="64" height="64" rx="14" fill="${BRAND}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${background}${book}</svg>`;
}

export const ICONS = [
  { name: 'icon-192', size: 192, maskable: false },
  { name: 'icon-512', size: 512, maskable: false },
  { name: 'maskable-512', size: 512, maskable: true },
] as const;
