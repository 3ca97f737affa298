import { openDictionary } from './open';
import { dictd, LIMITS, Uploads } from './fixtures.testing';
import { DictionaryFileError } from './types';

describe(openDictionary.name, () => {
  let uploads: Uploads;
  beforeEach(() => (uploads = new Uploads()));
  afterEach(() => uploads.remove());

  const refusal = (names: string[]) =>
    openDictionary(
      names.map((name) => uploads.write(name, 'x')),
      LIMITS,
    ).then(
      () => 'opened',
      (error: Error) => {
        expect(error).toBeInstanceOf(DictionaryFileError);
        return error.message;
      },
    );

  it('refuses a file of no known kind', async () => {
    expect(await refusal(['words.docx'])).toBe(
      'words.docx: is not a dictionary file: dictd (.index, .dict, .dict.dz), StarDict (.ifo, .idx, .dict, .dict.dz, .syn), TSV (.tsv, .txt) or CSV (.csv).',
    );
  });
  it('refuses an .index without its .dict', async () => {
    expect(await refusal(['tiny.index'])).toBe('tiny.index: needs its .dict or .dict.dz beside it.');
  });
  it('refuses a .dict alone', async () => {
    expect(await refusal(['tiny.dict.dz'])).toBe(
      'tiny.dict.dz: needs its index beside it: a dictd .index, or a StarDict .ifo and .idx.',
    );
  });
  it('refuses a StarDict without its .ifo', async () => {
    expect(await refusal(['tiny.idx', 'tiny.dict'])).toBe('tiny.idx: needs its .ifo beside it.');
  });
  it('refuses files of two formats', async () => {
    expect(await refusal(['tiny.index', 'tiny.dict', 'tiny.ifo'])).toBe(
      'tiny.ifo: is not of the same format as tiny.index: send one dictionary at a time.',
    );
    expect(await refusal(['a.tsv', 'b.csv'])).toBe(
      'b.csv: is not of the same format as a.tsv: send one dictionary at a time.',
    );
  });
  it('refuses two files of the same part, or parts of different names', async () => {
    expect(await refusal(['a.tsv', 'b.tsv'])).toBe(
      'b.tsv: is a second tsv file, after a.tsv: send one dictionary at a time.',
    );
    expect(await refusal(['spa.index', 'deu.dict.dz'])).toBe(
      'deu.dict.dz: does not share its name with spa.index: the parts of a dictionary have one name.',
    );
  });
  it('refuses no files', async () => {
    expect(await openDictionary([], LIMITS).catch((error: Error) => error.message)).toBe(
      'files: no file was sent: a dictionary is one or more files.',
    );
  });
  it('checks content, not names: an .index that is not one is refused with its line', async () => {
    const parts = [
      uploads.write('tiny.index', 'this is not an index\n'),
      uploads.write('tiny.dict', dictd([]).dict),
    ];
    const opened = await openDictionary(parts, LIMITS);
    const error = await (async () => {
      for await (const entry of opened.entries()) return entry;
    })().catch((caught: Error) => caught.message);
    await opened.close();
    expect(error).toBe(
      'tiny.index, line 1: has 1 tab-separated field; an index line has three (headword, offset, length).',
    );
  });
});
