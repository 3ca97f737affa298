import { slugify, uniqueCode } from './book-code';

describe('slugify', () => {
  it('makes a readable slug from a title with accents and punctuation', () => {
    expect(slugify('Le Petit Voyage')).toBe('le-petit-voyage');
    expect(slugify('  ¿Dónde está la estación?  ')).toBe('donde-esta-la-estacion');
    expect(slugify('Straße & Brücke')).toBe('strasse-brucke');
  });

  it('falls back to "book" for a title with no letters or digits', () => {
    expect(slugify('!!!')).toBe('book');
    expect(slugify('東京物語')).toBe('book');
  });

  it('keeps slugs short and without a trailing dash', () => {
    const slug = slugify('a '.repeat(100));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('-')).toBe(false);
  });
});

describe('uniqueCode', () => {
  it('adds the first free suffix on a collision', () => {
    expect(uniqueCode('Le Petit Voyage', new Set())).toBe('le-petit-voyage');
    expect(uniqueCode('Le Petit Voyage', new Set(['le-petit-voyage']))).toBe('le-petit-voyage-2');
    expect(uniqueCode('Le petit voyage!', new Set(['le-petit-voyage', 'le-petit-voyage-2']))).toBe(
      'le-petit-voyage-3',
    );
  });
});
