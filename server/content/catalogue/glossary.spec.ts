import { splitGlossary } from './glossary';

describe(splitGlossary.name, () => {
  it('splits each line at the earliest separator', () => {
    expect(
      splitGlossary(
        'le chat — the cat\nla gare – the station\nvite - quickly\nbonjour: hello\nmerci\tthank you',
      ),
    ).toEqual([
      { term: 'le chat', meaning: 'the cat' },
      { term: 'la gare', meaning: 'the station' },
      { term: 'vite', meaning: 'quickly' },
      { term: 'bonjour', meaning: 'hello' },
      { term: 'merci', meaning: 'thank you' },
    ]);
  });

  it('takes the earliest of several separators, keeping the rest in the meaning', () => {
    expect(splitGlossary('à demain: see you - tomorrow')).toEqual([
      { term: 'à demain', meaning: 'see you - tomorrow' },
    ]);
    expect(splitGlossary('heure - time: o’clock')).toEqual([{ term: 'heure', meaning: 'time: o’clock' }]);
  });

  it('keeps a hyphenated word whole (a hyphen without spaces is no separator)', () => {
    expect(splitGlossary('peut-être — maybe')).toEqual([{ term: 'peut-être', meaning: 'maybe' }]);
  });

  it('makes a line without a separator a term with no meaning, and skips blank lines', () => {
    expect(splitGlossary('\r\nsoudain\r\n\r\n')).toEqual([{ term: 'soudain', meaning: '' }]);
  });
});
