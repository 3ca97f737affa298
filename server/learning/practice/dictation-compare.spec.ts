import {
  compareDictation,
  dictationWords,
  DIFF_BUDGET,
  keptAnswer,
  LETTER_BUDGET,
  letterDiff,
  noWork,
  typedWordsCap,
} from './dictation-compare';
import { MAX_CELLS, MIN_BAND } from './dictation-alignment';

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
    // Extra words are shown, and cost nothing: the score is the share of the phrase's words typed right.
    expect(extra.score).toBe(100);
    expect(score('oui', 'oui oui oui oui')).toBe(100);
    expect(score('je vais à la plage', 'je vais la plage voir')).toBe(80);
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

  it('ignores where the learner put word boundaries, apostrophes and hyphens', () => {
    const table: Array<[string, string, string, number]> = [
      ["Qu'est-ce que c'est ?", 'qu est ce que c est', 'fr', 100],
      ["l'homme", 'l homme', 'fr', 100],
      ["l'homme", 'l´homme', 'fr', 100],
      ["l'homme", 'l`homme', 'fr', 100],
      ["l'homme", 'lhomme', 'fr', 100],
      ["Aujourd'hui", 'aujourd hui', 'fr', 100],
      ["Aujourd'hui", 'aujourdhui', 'fr', 100],
      ['week-end', 'weekend', 'fr', 100],
      ['weekend', 'week-end', 'fr', 100],
      ['peut-être', 'peutêtre', 'fr', 100],
      ['peut-être', 'peut etre', 'fr', 75],
      ['il y a', 'ilya', 'fr', 100],
      ["Don't", 'Don`t', 'en', 100],
      ["Don't", 'donʼt', 'en', 100],
      ["Don't", 'don’t', 'en', 100],
      ['我喜欢吃米饭', '我喜换吃米饭', 'zh', 75],
      ['ฉันชอบกินข้าว', 'ฉันชอบกินขาว', 'th', 75],
    ];
    for (const [phrase, typed, lang, expected] of table)
      expect([phrase, typed, score(phrase, typed, false, lang)]).toEqual([phrase, typed, expected]);

    // The typed words that stand for one expected word are shown together, as typed.
    expect(compareDictation("Qu'est-ce que c'est ?", 'qu est ce que c est', false, 'fr').words).toEqual([
      { expected: "Qu'est", typed: 'qu est', status: 'correct' },
      { expected: 'ce', typed: 'ce', status: 'correct' },
      { expected: 'que', typed: 'que', status: 'correct' },
      { expected: "c'est", typed: 'c est', status: 'correct' },
    ]);
    expect(compareDictation('peut-être', 'peutetre', false, 'fr').words).toEqual([
      {
        expected: 'peut-être',
        typed: 'peutetre',
        status: 'accent',
        diff: [
          ['=', 'peut'],
          ['-', 'ê'],
          ['+', 'e'],
          ['=', 'tre'],
        ],
      },
    ]);
    expect(score('peut-être', 'peutetre')).toBe(50); // two words, each an accent slip: (½ + ½) / 2
    // One wrong character in a language without spaces is one misspelt word, its letters shown.
    expect(compareDictation('我喜欢吃米饭', '我喜换吃米饭', false, 'zh').words[1]).toEqual({
      expected: '喜欢',
      typed: '喜换',
      status: 'misspelt',
      diff: [
        ['=', '喜'],
        ['-', '欢'],
        ['+', '换'],
      ],
    });
    expect(compareDictation('ฉันชอบกินข้าว', 'ฉันชอบกินขาว', false, 'th').words[3]).toEqual({
      expected: 'ข้าว',
      typed: 'ขาว',
      status: 'misspelt',
      diff: [
        ['=', 'ข'],
        ['-', '\u0e49'],
        ['=', 'าว'],
      ],
    });
    // A real extra word is still extra, not glued to its neighbour as a misspelling.
    expect(statuses('le chat', 'le chat s')).toEqual(['correct', 'correct', 'extra']);
  });

  it('compares full-width letters, ligatures and invisible characters as the letters they show', () => {
    expect(score('Hello world 2024', 'ｈｅｌｌｏ ｗｏｒｌｄ ２０２４', false, 'en')).toBe(100);
    expect(score('office', 'oﬃce', false, 'en')).toBe(100);
    expect(score('Bundesstraße', 'Bundes\u00adstraße', false, 'de')).toBe(100);
    expect(score('می‌خواهم', 'میخواهم', false, 'fa')).toBe(100); // without its zero-width non-joiner
  });

  it('takes Arabic harakat and Hebrew niqqud off as accents: half a word, misspelt in strict mode', () => {
    const arabic = compareDictation('مَرْحَبًا', 'مرحبا', false, 'ar');
    expect(arabic.score).toBe(50);
    expect(arabic.words[0].status).toBe('accent');
    expect(score('مَرْحَبًا', 'مرحبا', true, 'ar')).toBe(0);
    expect(score('مَرْحَبًا', 'مَرْحَبًا', true, 'ar')).toBe(100);
    const hebrew = compareDictation('שָׁלוֹם', 'שלום', false, 'he');
    expect(hebrew.score).toBe(50);
    expect(hebrew.words[0].diff).toEqual([
      ['=', 'ש'],
      ['-', '\u05b8\u05c1'],
      ['=', 'לו'],
      ['-', '\u05b9'],
      ['=', 'ם'],
    ]);
  });

  // The largest answers against the longest phrases (2,000 characters), built to cost the most: the work
  // is counted (cells, letter steps, diff cells, characters compared), never timed.
  const LONGEST = 2000;
  const random = (seed: number) => () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const made = (count: number, word: (i: number) => string) =>
    Array.from({ length: count }, (_, i) => word(i)).join(' ');
  const next = random(42);
  const abcd = (length: number) => Array.from({ length }, () => 'abcd'[Math.floor(next() * 4)]).join('');
  const japanese = '私は毎朝早く起きて、公園を散歩してから、コーヒーを飲みながら新聞を読みます。'
    .repeat(60)
    .slice(0, LONGEST);
  const worst: Array<[string, string, string, string]> = [
    ['Japanese, over 1,000 words, against kana', japanese, 'あいうえおかきくけこ'.repeat(1000), 'ja'],
    ['Japanese against itself reversed', japanese, Array.from(japanese).reverse().join('').repeat(5), 'ja'],
    [
      '1,000 one-letter words against one-letter words',
      made(1001, (i) => 'abcdefghijklmnopqrstuvwxyz'[i % 26]).slice(0, LONGEST),
      made(5000, (i) => 'abcdefghijklmnopqrstuvwxyz'[(i * 7) % 26]),
      'fr',
    ],
    [
      'near words everywhere (four letters of abcd)',
      made(401, () => abcd(4)).slice(0, LONGEST),
      made(2000, () => abcd(4)),
      'fr',
    ],
    ['one word of 2,000 letters, accents off', 'é'.repeat(LONGEST), 'e'.repeat(10_000), 'fr'],
    ['punctuation only', made(400, (i) => `mot${i}`).slice(0, LONGEST), '!'.repeat(10_000), 'fr'],
    [
      'emoji (two UTF-16 code units each)',
      made(400, (i) => `mot${i}`).slice(0, LONGEST),
      '😀'.repeat(5000),
      'fr',
    ],
  ];

  it.each(worst)(
    'bounds its work for the largest answer against the longest phrase: %s',
    (_name, phrase, typed, lang) => {
      expect(Array.from(phrase).length).toBe(LONGEST);
      const n = dictationWords(phrase, lang).length;
      const work = noWork();
      const largest = typed.slice(0, 10_000);
      const result = compareDictation(phrase, largest, false, lang, work);
      // The answer is cut to what is kept of it (4 × 2,000 + 100) before anything else.
      expect(work.typedChars).toBe(Math.min(largest.length, 4 * LONGEST + 100));
      expect(work.typedAligned).toBeLessThanOrEqual(typedWordsCap(n));
      expect(work.cells).toBeLessThanOrEqual(Math.max(MAX_CELLS, n * MIN_BAND));
      expect(work.letterSteps).toBeLessThanOrEqual(LETTER_BUDGET);
      expect(work.diffCells).toBeLessThanOrEqual(DIFF_BUDGET);
      expect(result.score).toBeGreaterThanOrEqual(0);
      expect(result.score).toBeLessThanOrEqual(100);
      // Every phrase word is accounted for once, whatever was typed (a joined entry covers 2 or 3).
      const covered = result.words
        .filter((w) => w.expected !== null)
        .reduce((sum, w) => sum + dictationWords(w.expected ?? '', lang).length, 0);
      expect(covered).toBe(n);
    },
  );

  it('keeps the largest answers sensible past its bounds: the longest phrase typed back, with slips', () => {
    // 330 words, 2,000 characters: more cells than MAX_CELLS, so the alignment runs in a band.
    const phrase = made(330, (i) => `mot${i}`).slice(0, LONGEST);
    const words = dictationWords(phrase, 'fr').map((w) => w.text);
    const n = words.length;
    expect(n * (n + 1)).toBeGreaterThan(MAX_CELLS);
    const cost = (typed: string) => {
      const work = noWork();
      const result = compareDictation(phrase, typed, false, 'fr', work);
      expect(work.cells).toBeLessThanOrEqual(MAX_CELLS);
      expect(work.letterSteps).toBeLessThanOrEqual(LETTER_BUDGET);
      return { ...result, work };
    };

    // Typed right, then as much more as the API takes: 100, the rest extra, the copy cut at 8,100.
    const padded = cost(`${phrase} ${'encore '.repeat(2000)}`.slice(0, 10_000));
    expect(padded.score).toBe(100);
    expect(padded.work.typedChars).toBe(4 * LONGEST + 100);
    expect(padded.words.filter((w) => w.status === 'correct')).toHaveLength(n);

    // A misspelt word, a missing one, a sentence of 20 words left out and 8 words added in the middle.
    const typed = [
      ...words.slice(0, 10),
      'mo10',
      ...words.slice(11, 100),
      ...words.slice(101, 150),
      ...words.slice(170, 250),
      ...'et puis encore un peu plus tard'.split(' '),
      ...words.slice(250),
    ].join(' ');
    const slipped = cost(typed);
    expect(slipped.score).toBe(Math.round((100 * (n - 22)) / n));
    expect(slipped.words.find((w) => w.status === 'misspelt')).toEqual({
      expected: 'mot10',
      typed: 'mo10',
      status: 'misspelt',
      diff: [
        ['=', 'mo'],
        ['-', 't'],
        ['=', '10'],
      ],
    });
    expect(slipped.words.filter((w) => w.status === 'missing')).toHaveLength(21);
    expect(slipped.words.filter((w) => w.status === 'extra').map((w) => w.typed)).toEqual(
      'et puis encore un peu plus tard'.split(' '),
    );

    // Only the first half typed: 50, the rest missing.
    const half = cost(words.slice(0, n / 2).join(' '));
    expect(half.score).toBe(50);

    // Eleven words of something else first, then the phrase.
    const late = cost(`${'voilà '.repeat(11)}${phrase}`);
    expect(late.score).toBe(100);

    // 25, 40 or 100 words added in the middle (100: more than half the band): extra words cost nothing.
    for (const added of [25, 40, 100]) {
      const inserted = cost(
        [...words.slice(0, 160), ...Array(added).fill('encore'), ...words.slice(160)].join(' '),
      );
      expect([added, inserted.score]).toEqual([added, 100]);
      expect(inserted.words.filter((w) => w.status === 'extra').map((w) => w.typed)).toEqual(
        Array(added).fill('encore'),
      );
    }
  });

  it('reads a long text in chunks into the same words as read whole', () => {
    const whole = (text: string) =>
      Array.from(new Intl.Segmenter('hi', { granularity: 'word' }).segment(text))
        .filter((part) => part.isWordLike)
        .map((part) => part.segment);
    // A zero-width no-break space (U+FEFF) joins two words into one: no chunk may end after it.
    const joined = Array(150).fill('mot\ufeffmot').join(' ');
    expect(dictationWords(joined, 'fr').map((w) => w.text)).toEqual(whole(joined));
    // A run of 1,201 characters without a space is cut at 1,024, but never before a vowel sign or a
    // virama (combining marks), which would be dropped with the chunk's start.
    for (const run of ['क' + 'कि'.repeat(600), 'क' + 'क्'.repeat(600), 'x' + 'x\u0301'.repeat(600)]) {
      const words = dictationWords(run, 'hi').map((w) => w.text);
      expect(words.join('')).toBe(run);
      expect(words).toHaveLength(2);
    }
  });

  it('keeps an answer cut between code points, counted in UTF-16 code units', () => {
    const kept = keptAnswer(`a${'😀'.repeat(5000)}`, 'x'.repeat(LONGEST));
    expect(kept).toBe(`a${'😀'.repeat(4049)}`); // 8,099 code units: the emoji across 8,100 is left out
  });

  it('shows the letters of a pasted word of thousands of letters within its budget', () => {
    const work = noWork();
    const [word] = compareDictation('é'.repeat(2000), 'e'.repeat(2000), false, 'fr', work).words;
    expect(work.diffCells).toBeLessThanOrEqual(DIFF_BUDGET);
    // Text without a space or a full stop is read 1,024 characters at a time: two words here, each
    // shown as one change (the budget is far below 1,024 × 1,024 cells).
    expect(word.status).toBe('accent');
    expect(word.diff).toEqual([
      ['-', 'é'.repeat(1024)],
      ['+', 'e'.repeat(1024)],
    ]);
  });

  it('aligns a phrase of ordinary length whole, stopping the typed words at 2n + 10', () => {
    const short = 'Le vieux pêcheur regardait la mer depuis le port, chaque matin, sans rien dire.';
    const words = dictationWords(short, 'fr').length;
    const work = noWork();
    const result = compareDictation(short, `${short} ${'la mer '.repeat(1500)}`, false, 'fr', work);
    expect(work.typedAligned).toBe(typedWordsCap(words));
    expect(work.cells).toBe(words * typedWordsCap(words));
    // Typed right first, the rest extra: extra words cost nothing.
    expect(result.score).toBe(100);
    expect(result.words.length).toBe(typedWordsCap(words) + 1);
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
