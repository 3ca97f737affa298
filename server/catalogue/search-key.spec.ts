import { searchKey, searchTerms, wordPrefixPattern } from './search-key';

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
