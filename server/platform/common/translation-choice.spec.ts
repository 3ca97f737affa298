import { chooseTranslation } from './translation-choice';

describe('chooseTranslation (the one translation rule)', () => {
  const available = { de: 'Die Katze schläft.', en: 'The cat sleeps.', 'pt-BR': 'O gato dorme.' };

  it('takes the first preferred language the phrase has', () => {
    expect(chooseTranslation(available, ['fr', 'de', 'en'], 'es')).toEqual({
      language: 'de',
      text: 'Die Katze schläft.',
    });
  });

  it("falls back from a regional tag to its bare language, as a browser's en-US reads en", () => {
    expect(chooseTranslation(available, ['en-US'], 'es')).toEqual({
      language: 'en',
      text: 'The cat sleeps.',
    });
  });

  it('prefers the exact regional tag to the bare language', () => {
    expect(chooseTranslation({ pt: 'O gato dorme.', ...available }, ['pt-BR'], 'es')?.language).toBe('pt-BR');
  });

  it("leaves the book's own language out, whatever its region", () => {
    expect(chooseTranslation(available, ['de-AT', 'en'], 'de')).toEqual({
      language: 'en',
      text: 'The cat sleeps.',
    });
    expect(chooseTranslation(available, ['de'], 'de-CH')).toBeNull();
  });

  it('is null when the phrase has none of the languages, none are preferred, or it has no translations', () => {
    expect(chooseTranslation(available, ['fr'], 'es')).toBeNull();
    expect(chooseTranslation(available, [], 'es')).toBeNull();
    expect(chooseTranslation({}, ['en'], 'es')).toBeNull();
    expect(chooseTranslation(undefined, ['en'], 'es')).toBeNull();
  });

  it('skips an empty text for the next language', () => {
    expect(chooseTranslation({ en: '', de: 'Hallo.' }, ['en', 'de'], 'fr')?.language).toBe('de');
  });
});
