import type { Page } from '@playwright/test';

/** The smallest a control may be on a touch screen, in CSS px, both ways (WCAG 2.5.5, Apple, Material). */
export const TAP_PX = 44;

/** A control under TAP_PX, as the test lists it: what it is, and its size. */
export interface SmallTarget {
  what: string;
  width: number;
  height: number;
}

/**
 * Every visible control on the page smaller than TAP_PX either way. A link inside running text (a
 * paragraph, a list item or a cell with other words around it) is exempt, as WCAG's "inline" exception
 * says; so is a control hidden from every user. A control's hit area is its own box: padding counts, a
 * neighbour's margin does not. A skip link, clipped out of sight until it is focused, counts only then.
 */
export function smallTargets(page: Page): Promise<SmallTarget[]> {
  return page.evaluate((tap) => {
    const selector = [
      'a[href]',
      'button',
      'input:not([type=hidden])',
      'select',
      'textarea',
      'summary',
      '[role=button]',
      '[role=slider]',
      '[role=tab]',
      '[role=checkbox]',
      '[role=switch]',
    ].join(',');
    const inline = (element: Element) => {
      if (element.tagName !== 'A') return false;
      if (getComputedStyle(element).display !== 'inline') return false;
      const block = element.closest('p, li, dd, td, figcaption, label');
      if (!block) return false;
      const own = (element.textContent ?? '').trim().length;
      return (block.textContent ?? '').trim().length > own + 1;
    };
    const describe = (element: Element) => {
      const name =
        element.getAttribute('aria-label') ??
        (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40) ??
        '';
      const id = element.id ? `#${element.id}` : '';
      const classes = element.classList.length ? `.${[...element.classList].join('.')}` : '';
      return `${element.tagName.toLowerCase()}${id}${classes} "${name}"`;
    };
    const found: Array<{ what: string; width: number; height: number }> = [];
    for (const element of document.querySelectorAll(selector)) {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      if (!box.width || !box.height || style.visibility === 'hidden' || element.closest('[hidden], [inert]'))
        continue;
      // Clipped out of sight until focused (the skip link): not a target until it shows.
      if (style.getPropertyValue('clip') === 'rect(0px, 0px, 0px, 0px)' && box.width <= 1 && box.height <= 1)
        continue;
      // A native checkbox or radio counts with its label, which takes the tap as well.
      const label = element instanceof HTMLInputElement && element.labels?.[0];
      const area = label && /checkbox|radio/.test(element.type) ? label.getBoundingClientRect() : box;
      if (inline(element)) continue;
      if (area.width + 0.5 < tap || area.height + 0.5 < tap)
        found.push({
          what: describe(element),
          width: Math.round(area.width),
          height: Math.round(area.height),
        });
    }
    return found;
  }, TAP_PX);
}
