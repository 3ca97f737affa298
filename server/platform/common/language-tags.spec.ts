import { canonicalTag, parseTagList } from './language-tags';

describe('language tags', () => {
  it('canonicalises well-formed tags', () => {
    expect(
      ['en', 'EN', 'pt-br', 'zh-hant-tw', 'sr-Latn-RS', 'es-419', 'de-DE-1996', 'iw'].map(canonicalTag),
    ).toEqual(['en', 'en', 'pt-BR', 'zh-Hant-TW', 'sr-Latn-RS', 'es-419', 'de-DE-1996', 'he']);
  });

  it('refuses anything odd', () => {
    const odd = ['', 'e', 'english', 'en_US', 'en-', 'en US', 'x-private', 'i-klingon', 'en-u-ca-gregory'];
    odd.push('und', 'root', 'zh-min-nan', 'a'.repeat(36), 'en-\u0130', '<script>');
    expect(odd.map(canonicalTag)).toEqual(odd.map(() => null));
  });

  it('parses a comma-separated list: canonical, first place kept, blanks skipped, any bad one named', () => {
    expect(parseTagList(' en, pt-br,,PT-BR,de ')).toEqual({ ok: true, tags: ['en', 'pt-BR', 'de'] });
    expect(parseTagList('')).toEqual({ ok: true, tags: [] });
    expect(parseTagList('en,en_GB,de,x y')).toEqual({ ok: false, invalid: ['en_GB', 'x y'] });
  });
});
