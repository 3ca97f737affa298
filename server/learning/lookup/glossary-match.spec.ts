import { splitGlossary } from '../../content/catalogue/glossary';
import { matchGlossary } from './glossary-match';

describe(matchGlossary.name, () => {
  const glossary = splitGlossary('Casa — house\nau revoir: goodbye\nvoir - to see\nde nuevo — again');

  it('finds the term that is the word, case aside', () => {
    expect(matchGlossary(glossary, 'casa', 'es')).toEqual({ term: 'Casa', meaning: 'house' });
    expect(matchGlossary(glossary, 'VOIR', 'fr')).toEqual({ term: 'voir', meaning: 'to see' });
  });

  it('finds a multi-word term holding the word as a whole word, not inside another word', () => {
    expect(matchGlossary(glossary, 'revoir', 'fr')).toEqual({ term: 'au revoir', meaning: 'goodbye' });
    expect(matchGlossary(glossary, 'Nuevo', 'es')).toEqual({ term: 'de nuevo', meaning: 'again' });
    expect(matchGlossary(glossary, 'evoir', 'fr')).toBeNull();
    expect(matchGlossary(glossary, 'as', 'es')).toBeNull();
  });

  it('falls back to a term that is one of the lemmas', () => {
    expect(matchGlossary(glossary, 'casas', 'es', ['casar', 'casa'])).toEqual({
      term: 'Casa',
      meaning: 'house',
    });
    expect(matchGlossary(glossary, 'casas', 'es')).toBeNull();
  });

  it('segments languages written without spaces', () => {
    const japanese = splitGlossary('猫 — cat\n東京 — Tokyo');
    expect(matchGlossary(japanese, '東京', 'ja')).toEqual({ term: '東京', meaning: 'Tokyo' });
  });
});
