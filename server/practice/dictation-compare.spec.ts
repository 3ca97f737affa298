import { compareDictation, dictationWords, letterDiff, typedWordsCap } from './dictation-compare';

const statuses = (expected: string, typed: string, strict = false, lang = 'fr') =>
  compareDictation(expected, typed, strict, lang).words.map((w) => w.status);
const score = (expected: string, typed: string, strict = false, lang = 'fr') =>
  compareDictation(expected, typed, strict, lang).score;

describe(compareDictation.name, () => {
  it('gives 100 to the phrase typed right, whatever the case, punctuation and spacing', () => {
    const phrase = 'Bonjour, je m’appelle Marie.';
    for (const typed of [
      'Bonjour, je m’appelle Marie.',
      'bonjour je m’appelle marie',
      '  BONJOUR   je   m’appelle  Marie !!! ',
      "bonjour; je m'appelle... Marie?",
      'Bonjour\nje\tm’appelle Marie',
    ])
      expect([typed, score(phrase, typed)]).toEqual([typed, 100]);
    expect(compareDictation(phrase, 'bonjour je m’appelle marie', false, 'fr').words).toEqual([
      { expected: 'Bonjour', typed: 'bonjour', status: 'correct' },
      { expected: 'je', typed: 'je', status: 'correct' },
      { expected: 'm’appelle', typed: 'm’appelle', status: 'correct' },
      { expected: 'Marie', typed: 'marie', status: 'correct' },
    ]);
  });

  it('counts an accent-only slip as half a word, and as a whole one in strict mode', () => {
    const phrase = 'Il a été très content';
    const result = compareDictation(phrase, 'il a ete tres content', false, 'fr');
    expect(result.score).toBe(80); // 3 right, 2 halves: (3 + 1) / 5
    expect(result.words[2]).toEqual({
      expected: 'été',
      typed: 'ete',
      status: 'accent',
      diff: [
        ['-', 'é'],
        ['+', 'e'],
        ['=', 't'],
        ['-', 'é'],
        ['+', 'e'],
      ],
    });
    const strict = compareDictation(phrase, 'il a ete tres content', true, 'fr');
    expect(strict.score).toBe(60); // 3 of 5
    expect(strict.words.map((w) => w.status)).toEqual([
      'correct',
      'correct',
      'misspelt',
      'misspelt',
      'correct',
    ]);
    // A wrong accent is a slip too, and a decomposed é (e + U+0301) is the same letter as é.
    expect(statuses('très', 'trés')).toEqual(['accent']);
    expect(score('été', 'e\u0301te\u0301')).toBe(100);
    expect(statuses('Straße über', 'strasse uber', false, 'de')).toEqual(['misspelt', 'accent']);
  });

  it('marks a near word misspelt with the letters that differ, a far one missing and extra', () => {
    const near = compareDictation('le petit chat', 'le peti chat', false, 'fr');
    expect(near.score).toBe(67);
    expect(near.words[1]).toEqual({
      expected: 'petit',
      typed: 'peti',
      status: 'misspelt',
      diff: [
        ['=', 'peti'],
        ['-', 't'],
      ],
    });
    expect(statuses('le petit chat', 'le maison chat')).toEqual(['correct', 'missing', 'extra', 'correct']);
    expect(statuses('le chat noir', 'le chta noir')).toEqual(['correct', 'misspelt', 'correct']);
    expect(statuses('le chat noir', 'le chien noir')).toEqual(['correct', 'missing', 'extra', 'correct']);
  });

  it('finds missing and extra words in their places', () => {
    expect(compareDictation('je vais à la plage', 'je vais la plage', false, 'fr').words).toEqual([
      { expected: 'je', typed: 'je', status: 'correct' },
      { expected: 'vais', typed: 'vais', status: 'correct' },
      { expected: 'à', typed: null, status: 'missing' },
      { expected: 'la', typed: 'la', status: 'correct' },
      { expected: 'plage', typed: 'plage', status: 'correct' },
    ]);
    expect(score('je vais à la plage', 'je vais la plage')).toBe(80);
    const extra = compareDictation('je vais bien', 'je vais très bien', false, 'fr');
    expect(extra.words.map((w) => w.status)).toEqual(['correct', 'correct', 'extra', 'correct']);
    // Each extra word costs as much as a missing one.
    expect(extra.score).toBe(67);
    expect(score('oui', 'oui oui oui oui')).toBe(0);
  });

  it('gives 0 to an empty answer, with every word missing', () => {
    for (const typed of ['', '   ', '?!…']) {
      const result = compareDictation('Où est la gare ?', typed, false, 'fr');
      expect(result).toEqual({
        score: 0,
        words: ['Où', 'est', 'la', 'gare'].map((word) => ({
          expected: word,
          typed: null,
          status: 'missing',
        })),
      });
    }
    expect(compareDictation('…', '', false, 'fr')).toEqual({ score: 100, words: [] });
    expect(compareDictation('…', 'quoi', false, 'fr').score).toBe(0);
  });

  it('splits languages written without spaces into words', () => {
    expect(dictationWords('私は学生です。', 'ja').map((t) => t.text)).toEqual(['私', 'は', '学生', 'です']);
    expect(score('私は学生です。', '私は学生です', false, 'ja')).toBe(100);
    expect(score('私は学生です。', '私 は 学生 です', false, 'ja')).toBe(100);
    expect(statuses('私は学生です。', '私は先生です', false, 'ja')).toEqual([
      'correct',
      'correct',
      'misspelt',
      'correct',
    ]);
    expect(score('ฉันชอบกินข้าว', 'ฉันชอบกินข้าว', false, 'th')).toBe(100);
    expect(score('我喜欢吃米饭', '我喜欢米饭', false, 'zh')).toBeLessThan(100);
  });

  it('falls back on the default word rules for a tag it cannot use', () => {
    expect(score('Hello world', 'hello world', false, 'not a tag!')).toBe(100);
  });

  it('stays fast and bounded for 10,000 characters typed', () => {
    const phrase = 'Le vieux pêcheur regardait la mer depuis le port, chaque matin, sans rien dire.';
    const typed = 'le vieux pecheur regarde la mer '.repeat(320).slice(0, 10_000);
    const started = Date.now();
    const result = compareDictation(phrase, typed, false, 'fr');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result.score).toBe(0);
    const expectedWords = dictationWords(phrase, 'fr').length;
    // The aligned typed words, then one entry for the rest, shortened.
    const extras = result.words.filter((w) => w.status === 'extra');
    expect(result.words.length).toBeLessThanOrEqual(expectedWords + typedWordsCap(expectedWords) + 1);
    expect(Array.from(extras[extras.length - 1].typed!).length).toBeLessThanOrEqual(201);

    // The longest phrase (2,000 characters) typed back whole, with a few slips.
    const long = Array.from({ length: 330 }, (_, i) => `mot${i}`).join(' ');
    const slipped = long.replace('mot10 ', 'mo10 ').replace('mot200 ', '');
    const t = Date.now();
    const longResult = compareDictation(long, slipped, false, 'fr');
    expect(Date.now() - t).toBeLessThan(3000);
    expect(longResult.score).toBe(Math.round((100 * 328) / 330));
  });
});

describe(letterDiff.name, () => {
  it('keeps runs together', () => {
    expect(letterDiff('maison', 'maizon')).toEqual([
      ['=', 'mai'],
      ['-', 's'],
      ['+', 'z'],
      ['=', 'on'],
    ]);
    expect(letterDiff('chat', 'chat')).toEqual([['=', 'chat']]);
  });
});
