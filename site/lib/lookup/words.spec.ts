import { distinctWords, wordsOf, wrapWords } from './words';

describe('the words of a phrase', () => {
  it('are the language’s words, apostrophes inside, punctuation out, repeats once in the list', () => {
    expect(wordsOf('Die Fähre brachte die Post, m’appelle.', 'de')).toEqual([
      'Die',
      'Fähre',
      'brachte',
      'die',
      'Post',
      'm’appelle',
    ]);
    expect(distinctWords('la casa, la casa', 'es')).toEqual(['la', 'casa']);
  });

  describe('in a browser without Intl.Segmenter (Firefox before 125)', () => {
    const original = Intl.Segmenter;
    beforeEach(() => {
      delete (Intl as { Segmenter?: unknown }).Segmenter;
    });
    afterEach(() => {
      Object.assign(Intl, { Segmenter: original });
    });

    it('wraps no word, so a tap on the phrase plays it (and nothing throws)', () => {
      const element = { dataset: {} } as HTMLElement;
      expect(() => wrapWords(element, 'fr')).not.toThrow();
      expect(element.dataset.words).toBeUndefined();
    });

    it('still lists the words for the keyboard and the Words button, split at spaces and punctuation', () => {
      expect(distinctWords('Je m’appelle Léa, et toi ? Léa 2', 'fr')).toEqual([
        'Je',
        'm’appelle',
        'Léa',
        'et',
        'toi',
        '2',
      ]);
    });
  });
});
