import { cardCount, cardName, isPhraseCard, shorten } from './cards';

describe('cards on /words and /review', () => {
  it('takes a card without a kind (kept offline before phrase cards) for a word', () => {
    expect(isPhraseCard({})).toBe(false);
    expect(isPhraseCard({ kind: 'word' })).toBe(false);
    expect(isPhraseCard({ kind: 'phrase' })).toBe(true);
  });

  it('names a word by its term and a phrase by its start, cut at a word', () => {
    const phrase = 'Die Fähre brachte nur zweimal in der Woche Post auf die Insel.';
    expect(cardName({ kind: 'word', term: 'Fähre', phrase })).toBe('Fähre');
    expect(cardName({ kind: 'phrase', term: '', phrase })).toBe('Die Fähre brachte nur zweimal in der…');
    expect(cardName({ kind: 'phrase', term: '', phrase: 'Kurz.' })).toBe('Kurz.');
    expect(shorten('a'.repeat(60), 10)).toBe('aaaaaaaaa…');
    expect(shorten('  two\n  lines ')).toBe('two lines');
  });

  it('counts words and phrases as a person says them', () => {
    expect(cardCount(2, 'all', ['word', 'word'])).toBe('2 words');
    expect(cardCount(1, 'all', [undefined])).toBe('1 word');
    expect(cardCount(1, 'all', ['phrase'])).toBe('1 phrase');
    expect(cardCount(3, 'all', ['word', 'phrase', 'word'])).toBe('2 words and 1 phrase');
    expect(cardCount(120, 'all', ['word'])).toBe('120 words and phrases');
    expect(cardCount(1, 'word')).toBe('1 word');
    expect(cardCount(5, 'phrase')).toBe('5 phrases');
  });
});
