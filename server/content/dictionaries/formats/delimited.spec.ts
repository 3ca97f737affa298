import { openDictionary } from './open';
import { LIMITS, readAll, readError, Uploads } from './fixtures.testing';

describe('TSV and CSV', () => {
  let uploads: Uploads;
  beforeEach(() => (uploads = new Uploads()));
  afterEach(() => uploads.remove());

  const read = async (name: string, text: string | Buffer, limits = LIMITS) =>
    readAll(await openDictionary([uploads.write(name, text)], limits));
  const failure = async (name: string, text: string | Buffer, limits = LIMITS) =>
    (await readError(await openDictionary([uploads.write(name, text)], limits))).message;

  it('reads a TSV with a header, comments, blank lines and an optional part of speech', async () => {
    const opened = await openDictionary(
      [
        uploads.write(
          'words.tsv',
          '\uFEFFheadword\tdefinition\tpos\n# mine\ncasa\thouse\tn\n\nir\tto go\r\nfue\t"he ""went"""\n',
        ),
      ],
      LIMITS,
    );
    expect(opened.format).toBe('tsv');
    expect(opened.meta).toEqual({});
    expect(await readAll(opened)).toEqual([
      { headword: 'casa', definition: 'house', pos: 'n' },
      { headword: 'ir', definition: 'to go', pos: null },
      { headword: 'fue', definition: 'he "went"', pos: null },
    ]);
  });

  it('reads a tab-separated .txt', async () => {
    expect(await read('words.txt', 'casa\thouse\n')).toEqual([
      { headword: 'casa', definition: 'house', pos: null },
    ]);
  });

  it('reads a CSV with quoted commas, quotes and line breaks, and HTML reduced', async () => {
    const csv = 'word,meaning\ncasa,"house, home",n\r\nmesa,"a ""table""\nor desk"\n\nnube,cloud<br>mist,,\n';
    const opened = await openDictionary([uploads.write('words.csv', csv)], LIMITS);
    expect(opened.format).toBe('csv');
    expect(await readAll(opened)).toEqual([
      { headword: 'casa', definition: 'house, home', pos: 'n' },
      { headword: 'mesa', definition: 'a "table"\nor desk', pos: null },
      { headword: 'nube', definition: 'cloud\nmist', pos: null },
    ]);
  });

  it('keeps a definition’s angle brackets when it is not HTML', async () => {
    expect(await read('words.tsv', 'ab\tfrom <prep>\n')).toEqual([
      { headword: 'ab', definition: 'from <prep>', pos: null },
    ]);
  });

  describe('refuses a broken file, naming it and the line', () => {
    it('a row without a definition', async () => {
      expect(await failure('words.tsv', 'casa\thouse\nmesa\n')).toBe(
        'words.tsv, line 2: has no definition: a row is a headword, a definition and an optional part of speech, tab-separated.',
      );
      expect(await failure('words.csv', 'casa,house\nmesa,\n')).toBe('words.csv, line 2: has no definition.');
    });
    it('an unterminated quote, at the line it opens', async () => {
      expect(await failure('words.csv', 'casa,house\nmesa,"table\nsilla,chair\n')).toBe(
        'words.csv, line 2: opens a quoted field that is never closed.',
      );
    });
    it('a character after a closing quote', async () => {
      expect(await failure('words.csv', 'casa,"house"s\n')).toBe(
        'words.csv, line 1: has a character after a closing quote (a quote inside a quoted field is written "").',
      );
    });
    it('too many fields', async () => {
      expect(await failure('words.tsv', 'casa\thouse\tn\textra\n')).toBe(
        'words.tsv, line 1: has 4 tab-separated fields; a row has a headword, a definition and an optional part of speech.',
      );
    });
    it('a headword over 200 characters', async () => {
      expect(await failure('words.tsv', `${'x'.repeat(201)}\thouse\n`)).toBe(
        'words.tsv, line 1: has a headword longer than 200 characters.',
      );
    });
    it('invalid UTF-8', async () => {
      expect(
        await failure(
          'words.tsv',
          Buffer.concat([Buffer.from('casa\thouse\n'), Buffer.from([0x6d, 0xe9, 0x09, 0x78, 0x0a])]),
        ),
      ).toBe('words.tsv, line 2: is not valid UTF-8.');
    });
    it('more entries than the limit', async () => {
      expect(await failure('words.tsv', 'a\tone\nb\ttwo\nc\tthree\n', { ...LIMITS, entries: 2 })).toBe(
        'words.tsv, line 3: holds more than 2 entries, the most a dictionary may have.',
      );
    });
  });

  it('cuts a definition over the limit', async () => {
    expect(await read('words.tsv', 'casa\tabcdefghij\n', { ...LIMITS, definitionChars: 5 })).toEqual([
      { headword: 'casa', definition: 'abcd…', pos: null },
    ]);
  });
});
