/**
 * Where a word's lookup sits (lookup-sheet.ts): a popover by the word where there is a mouse and room, the
 * design system's bottom sheet elsewhere (site/styles/reader/lookup.css draws both).
 */

/** A popover by the word where there is a mouse and room; the design system's bottom sheet elsewhere. */
const POPOVER = '(min-width: 48rem) and (pointer: fine)';

/** A popover: under the word, or above it when there is no room below, and inside the window. */
export function placeLookup(dialog: HTMLDialogElement, anchor: HTMLElement | undefined): void {
  const pop = matchMedia(POPOVER).matches && !!anchor;
  dialog.classList.toggle('lookup-pop', pop);
  if (!pop || !anchor || !dialog.open) {
    dialog.style.removeProperty('left');
    dialog.style.removeProperty('top');
    return;
  }
  const word = anchor.getBoundingClientRect();
  const box = dialog.getBoundingClientRect();
  const margin = 8;
  const left = Math.min(Math.max(margin, word.left), innerWidth - box.width - margin);
  const below = word.bottom + margin;
  const top =
    below + box.height <= innerHeight - margin ? below : Math.max(margin, word.top - margin - box.height);
  dialog.style.left = `${left}px`;
  dialog.style.top = `${top}px`;
}

/** Whether a click fell inside the dialog's own box (its padding: not the backdrop). */
export function clickedInside(dialog: HTMLDialogElement, { clientX: x, clientY: y }: MouseEvent): boolean {
  const box = dialog.getBoundingClientRect();
  return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
}
