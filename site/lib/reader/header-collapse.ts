/**
 * The reader's site header slides away while the learner reads down the page and comes back as soon as
 * they scroll up, as reading apps do (docs/reader.md, "Header"). It stays in the page's flow (sticky), so
 * nothing below it moves; only its transform changes (site/components/SiteHeader.astro). The root's
 * scroll-padding-top keeps its room whether it shows or not, so a phrase scrolled into view never lands
 * under it (site/styles/reader/page.css).
 */

/** Scrolls smaller than this (px) change nothing: a finger's jitter, a smooth scroll's last steps. */
const JITTER = 6;

export function collapseHeader(): void {
  const header = document.querySelector<HTMLElement>('[data-site-header].sticky');
  if (!header) return;
  const menu = document.getElementById('site-menu');
  let last = scrollY;
  let queued = false;
  const show = (shown: boolean) => header.classList.toggle('tucked', !shown);
  const update = () => {
    queued = false;
    const y = scrollY;
    const delta = y - last;
    if (Math.abs(delta) < JITTER && y > header.offsetHeight) return;
    last = y;
    // Near the top, while the menu is open or holds the focus, the header stays.
    const busy = menu?.matches(':popover-open') || header.contains(document.activeElement);
    show(y <= header.offsetHeight || delta < 0 || !!busy);
  };
  addEventListener(
    'scroll',
    () => {
      if (!queued) requestAnimationFrame(update);
      queued = true;
    },
    { passive: true },
  );
  // A keyboard reaching the header (Shift+Tab from the page) finds it shown.
  header.addEventListener('focusin', () => show(true));
}
