import { cutAtLeast, cutText, shortened } from './cut-text';
import { storedTextProblem } from './stored-text';

const EMOJI = '😀'; // two UTF-16 units

describe('cutting text', () => {
  it('never leaves half a surrogate pair', () => {
    const text = `ab${EMOJI}cd`;
    expect(cutText(text, 3)).toBe('ab');
    expect(cutText(text, 4)).toBe(`ab${EMOJI}`);
    expect(cutAtLeast(text, 3)).toBe(`ab${EMOJI}`);
    expect(cutAtLeast(text, 2)).toBe('ab');
    expect(shortened(text, 4)).toBe('ab…');
    expect(shortened(text, 5)).toBe(`ab${EMOJI}…`);
    for (const cut of [cutText, cutAtLeast, shortened])
      for (let max = 1; max <= text.length; max++) expect(storedTextProblem(cut(text, max))).toBeNull();
  });

  it('keeps a text that fits as it is, and cuts others as slice does', () => {
    expect(shortened('abc', 3)).toBe('abc');
    expect(shortened('abcd', 3)).toBe('ab…');
    expect(cutText('abcd', 2)).toBe('ab');
    expect(cutAtLeast('abcd', 2)).toBe('ab');
    // Text already broken is not the cut's to mend: a lone half stays for the checks to name.
    expect(cutText('a\ud800b', 2)).toBe('a\ud800');
  });
});
