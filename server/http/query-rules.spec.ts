import type { Request } from 'express';
import { apiQueryRules, KEPT_PAGE_SIZES } from './query-rules';

const CHAPTER = '/api/v1/guest/book/le-petit-voyage/chapter/1';

describe('the chapter API’s cache key', () => {
  /** The index of translation-index.ts: chapter 1 has de and en; null while it cannot tell. */
  const rules = (known = true) =>
    apiQueryRules({
      languagesOf: (code, chapterNo) =>
        known ? (code === 'le-petit-voyage' && chapterNo === '1' ? ['de', 'en'] : []) : null,
    });
  const key = (query: Record<string, unknown>, known = true) =>
    rules(known)(CHAPTER)!(query as Request['query']);

  it('keys on the asked languages the chapter has, sorted, whatever the spelling', () => {
    expect(key({})).toEqual({ canonical: '', cacheable: true });
    expect(key({ translations: 'en' })).toEqual({ canonical: 'translations=en', cacheable: true });
    for (const asked of ['de,en', 'en,de', 'EN,de,xx,en', ' de , en ,', 'en,de,fr-CA,ja'])
      expect(key({ translations: asked })).toEqual({ canonical: 'translations=de,en', cacheable: true });
    // Languages the chapter lacks add no entry: the answer is the one without translations.
    expect(key({ translations: 'fr,ja' })).toEqual({ canonical: '', cacheable: true });
    expect(rules()('/api/v1/guest/book/other/chapter/2')!({ translations: 'en' })).toEqual({
      canonical: '',
      cacheable: true,
    });
  });

  it('refuses what the route answers with a 422, and keeps nothing while the index cannot tell', () => {
    for (const translations of ['en_US', 'en,<b>', 'en,'.repeat(11), ['en', 'de'], { a: 'en' }])
      expect(key({ translations })).toBeNull();
    expect(key({ translations: 'en,fr,de' }, false)).toEqual({
      canonical: 'translations=de,en,fr',
      cacheable: false,
    });
    expect(key({}, false)).toEqual({ canonical: '', cacheable: true });
  });

  it('leaves other guest routes as they were', () => {
    expect(rules()('/api/v1/guest/book/le-petit-voyage/chapters')).toBeUndefined();
    expect(rules()('/api/v1/guest/books')).toBeDefined();
  });
});

describe('the browse API’s cache key', () => {
  const rule = apiQueryRules({ languagesOf: () => [] })('/api/v1/guest/books')!;
  const key = (query: Record<string, string>) => rule(query);

  it('keeps the answers of the default and a few round page sizes, and no other', () => {
    const kept = Array.from({ length: 100 }, (_, i) => i + 1).filter(
      (size) => key({ per_page: String(size), page: '2' })?.cacheable,
    );
    expect(kept).toEqual([10, 20, 24, 25, 50, 100]);
    expect([...KEPT_PAGE_SIZES].sort((a, b) => a - b)).toEqual(kept);
    expect(key({ per_page: '7', page: '3' })).toEqual({ canonical: 'page=3&per_page=7', cacheable: false });
    expect(key({ per_page: '24', lang: 'ES' })).toEqual({ canonical: 'lang=es', cacheable: true });
    expect(key({ per_page: '50', q: 'gato' })).toEqual({ canonical: 'q=gato&per_page=50', cacheable: false });
  });
});
