/**
 * The reader's single-key shortcuts (the page lists them, site/components/ReaderPlayer.astro): which key
 * presses are the reader's to take, and taking one.
 */

/** What each key does, by `KeyboardEvent.key`. */
export type KeyActions = Record<string, () => void>;

/**
 * Whether a key press is the reader's. Typing stays typing; single-key shortcuts act only on the reader
 * (or with nothing focused), so the header and the rest of the page keep their keys (WCAG 2.1.4).
 */
export function isReaderKey(event: KeyboardEvent, reader: HTMLElement): boolean {
  const target = event.target as HTMLElement;
  if (event.altKey || event.ctrlKey || event.metaKey) return false;
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || target.isContentEditable) return false;
  if (target !== document.body && !reader.contains(target)) return false;
  // Space on a focused button or link is that control's own activation.
  return !(event.key === ' ' && target.closest('button, a'));
}

/** Runs the key's action, if it has one. */
export function actOnKey(event: KeyboardEvent, actions: KeyActions): void {
  const action = actions[event.key];
  if (!action) return;
  event.preventDefault();
  // A held key acts once (and, prevented, does not scroll the page either).
  if (!event.repeat) action();
}

/**
 * After ← or →, the focus follows the current phrase (scrolled into view already); in dictation, into its
 * field, where the learner types next (site/lib/reader/dictation.ts).
 */
export function focusPhrase(li: HTMLLIElement): void {
  const field = li.querySelector<HTMLInputElement>('.dictation-form input');
  if (field) return field.focus({ preventScroll: true });
  li.tabIndex = -1;
  li.focus({ preventScroll: true });
}
