/**
 * The design system's bottom sheet (docs/design.md, "Bottom sheet"): a modal <dialog class="sheet"> that
 * slides up from the bottom on a phone and sits centred on a wide screen (site/styles/ui.css). Being a
 * modal <dialog>, the browser keeps the focus inside it, closes it on Escape and gives the focus back to
 * what opened it; this module adds a tap on the backdrop and the close button. For plain DOM scripts (the
 * reader, the word lookups) and, through islands/shared/BottomSheet.tsx, for React islands.
 */
import { iconSvg } from '../icons';

const WIRED = 'sheetWired';

/**
 * Makes a <dialog class="sheet"> close on a tap on its backdrop and on any [data-sheet-close] button inside
 * it. Safe to call more than once. Its content must sit in a .sheet-body: a click that reaches the
 * <dialog> itself is then a click on the backdrop.
 */
export function setUpSheet(dialog: HTMLDialogElement): HTMLDialogElement {
  if (dialog.dataset[WIRED]) return dialog;
  dialog.dataset[WIRED] = 'true';
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
    else if ((event.target as Element).closest('[data-sheet-close]')) dialog.close();
  });
  return dialog;
}

/** Opens the sheet as a modal dialog (wiring it first if needed). */
export function openSheet(dialog: HTMLDialogElement): void {
  setUpSheet(dialog);
  if (!dialog.open) dialog.showModal();
}

/** Closes the sheet; its 'close' event fires, as it does on Escape or a tap on the backdrop. */
export function closeSheet(dialog: HTMLDialogElement): void {
  if (dialog.open) dialog.close();
}

let made = 0;

/**
 * A new, empty sheet appended to the page: a heading, a close button and a body to fill. The heading
 * names the dialog; `closeLabel` names the close button (it shows only an icon).
 */
export function createSheet(
  title: string,
  { closeLabel = 'Close', parent = document.body }: { closeLabel?: string; parent?: HTMLElement } = {},
): { dialog: HTMLDialogElement; body: HTMLElement; heading: HTMLHeadingElement } {
  made += 1;
  const id = `sheet-title-${made}`;
  const dialog = document.createElement('dialog');
  dialog.className = 'sheet';
  dialog.setAttribute('aria-labelledby', id);
  const body = document.createElement('div');
  body.className = 'sheet-body';
  const head = document.createElement('div');
  head.className = 'sheet-head';
  const heading = Object.assign(document.createElement('h2'), { id, textContent: title });
  const close = Object.assign(document.createElement('button'), { type: 'button', className: 'button-icon' });
  close.dataset.sheetClose = '';
  close.setAttribute('aria-label', closeLabel);
  close.innerHTML = iconSvg('close');
  head.append(heading, close);
  body.append(head);
  dialog.append(body);
  parent.append(dialog);
  setUpSheet(dialog);
  return { dialog, body, heading };
}
