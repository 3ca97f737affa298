import {
  capWord,
  searchKey,
  searchTerms,
  searchWords,
  WORD_LENGTH,
  wordPrefixPattern,
  wordRange,
} from './search-key';

describe('searchKey', () => {
  it('folds case and accents, and splits words on anything that is not a letter or a digit', () => {
    expect(searchKey('El Niño, École — Straße!')).toBe(' el nino ecole strasse ');
    expect(searchKey('Ærø Łódź')).toBe(' aero lodz ');
    expect(searchKey('O Segredo do Elétrico 28')).toBe(' o segredo do eletrico 28 ');
  });

  it('folds other scripts the same way, so a query folds as the text did', () => {
    // й loses its breve like é loses its accent: typed either way, it matches.
    expect(searchKey('Война и мир')).toBe(' воина и мир ');
    expect(searchKey('ВОЙНА')).toBe(searchKey('воина'));
    expect(searchKey('東京物語')).toBe(' 東京物語 ');
  });

  it('is empty for a text without words', () => {
    expect(searchKey(' ,.; ')).toBe('');
  });
});

describe('searchTerms', () => {
  it('gives each word once, folded, at most eight', () => {
    expect(searchTerms('Gato gato GATO niño')).toEqual(['gato', 'nino']);
    expect(searchTerms('a b c d e f g h i j')).toHaveLength(8);
  });

  it('drops LIKE wildcards, which are not letters', () => {
    expect(searchTerms('50% _off')).toEqual(['50', 'off']);
  });
});

describe('wordPrefixPattern', () => {
  it('escapes the wildcards and the escape character', () => {
    expect(wordPrefixPattern('a%b_c\\')).toBe('% a\\%b\\_c\\\\%');
  });
});

describe('searchWords', () => {
  it('gives each folded word of a text once, in the order met', () => {
    expect(searchWords('Gato, gato y GATOS — Niño')).toEqual(['gato', 'y', 'gatos', 'nino']);
    expect(searchWords(' ,.; ')).toEqual([]);
  });

  it('cuts a word longer than the limit to its first characters, counted in code points', () => {
    const long = 'a'.repeat(WORD_LENGTH + 10);
    expect(searchWords(`${long} short`)).toEqual(['a'.repeat(WORD_LENGTH), 'short']);
    // Two long words equal up to the limit are one word.
    expect(searchWords(`${long}x ${long}y`)).toEqual(['a'.repeat(WORD_LENGTH)]);
  });
});

describe('capWord', () => {
  it('never splits a character written with two UTF-16 units', () => {
    const word = '𝒜'.repeat(WORD_LENGTH + 1); // one code point, two UTF-16 units each
    expect([...capWord(word)]).toHaveLength(WORD_LENGTH);
    expect(capWord(word)).toBe('𝒜'.repeat(WORD_LENGTH));
    expect(capWord('gato')).toBe('gato');
  });
});

describe('wordRange', () => {
  /** How SQLite's BINARY and PostgreSQL's COLLATE "C" compare: the UTF-8 bytes. */
  const inRange = (word: string, { lo, hi }: { lo: string; hi: string }) =>
    Buffer.compare(Buffer.from(word), Buffer.from(lo)) >= 0 &&
    Buffer.compare(Buffer.from(word), Buffer.from(hi)) < 0;

  it('holds, byte by byte, exactly the words that start with the term', () => {
    const words = ['gat', 'gato', 'gatos', 'gatз', 'gat東京', 'gat𝒜', 'gau', 'ga', 'gas', 'ato', 'agat', 'g'];
    const range = wordRange('gat');
    expect(words.filter((word) => inRange(word, range))).toEqual(words.filter((w) => w.startsWith('gat')));
  });

  it('cuts a long term as the words were cut, so a word longer than the limit is found by its start', () => {
    const word = capWord('x'.repeat(WORD_LENGTH + 20));
    expect(inRange(word, wordRange('x'.repeat(WORD_LENGTH + 5)))).toBe(true);
    expect(wordRange('x'.repeat(WORD_LENGTH + 5)).lo).toBe(word);
  });
});
