import { translationFields } from './admin-translations';

const row = (key: number, language: string, text: string) => ({ key, language, text });

describe('the phrase form’s translation fields', () => {
  it('sends one field per language, in the server’s spelling of the tag', () => {
    expect(translationFields([row(1, 'en', 'Good morning.'), row(2, ' pt-br ', 'Bom dia.')])).toEqual([
      ['translations[en]', 'Good morning.'],
      ['translations[pt-BR]', 'Bom dia.'],
    ]);
  });

  it('sends a removed language empty, so that the server removes it', () => {
    expect(
      translationFields([row(1, 'de', 'Guten Morgen.')], { en: 'Good morning.', de: 'Morgen.' }),
    ).toEqual([
      ['translations[de]', 'Guten Morgen.'],
      ['translations[en]', ''],
    ]);
  });

  it('leaves out a row without a language, and sends nothing for none', () => {
    expect(translationFields([row(1, '  ', '')])).toEqual([]);
    expect(translationFields([])).toEqual([]);
  });
});
