/**
 * Cutting text to a length in UTF-16 units (what `.length` and `.slice` count) without ever splitting a
 * surrogate pair (an emoji, a rare kanji): half a pair is not Unicode, and no stored text may hold it
 * (stored-text.ts), so a cut made by the server itself must not make one.
 */

/** Whether cutting `text` after `at` units would leave the first half of a pair without its second. */
function splitsPair(text: string, at: number): boolean {
  const high = text.charCodeAt(at - 1);
  const low = text.charCodeAt(at);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** The text's first `max` units, or `max − 1` when the cut would split a pair: never longer than `max`. */
export const cutText = (text: string, max: number): string =>
  text.length <= max ? text : text.slice(0, splitsPair(text, max) ? max - 1 : max);

/**
 * The text's first `max` units, or `max + 1` when the cut would split a pair: a text longer than `max`
 * stays longer than `max − 1`, so a reader that cuts at one more than a field takes (to bound its work)
 * can still tell the text is too long.
 */
export const cutAtLeast = (text: string, max: number): string =>
  text.length <= max ? text : text.slice(0, splitsPair(text, max) ? max + 1 : max);

/** The text, or, when longer than `max` units, its start and an ellipsis: `max` units at most. */
export const shortened = (text: string, max: number): string =>
  text.length <= max ? text : `${cutText(text, max - 1)}…`;
