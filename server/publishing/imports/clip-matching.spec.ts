import { matchClips } from './clip-matching';

const clip = (name: string) => ({ name, file: `/stage/${name}` });

describe('matching clips to rows', () => {
  it('matches a TSV by name, says which rows have no clip, and which clips match nothing', () => {
    const { rows, errors } = matchClips(
      {
        format: 'tsv',
        rows: [
          { n: 1, phrase: 'Un.', dictionary: '', audio: 'folder/1.mp3', translations: {} },
          { n: 2, phrase: 'Deux.', dictionary: '', audio: '2.MP3', translations: {} },
          { n: 3, phrase: 'Trois.', dictionary: '', audio: 'missing.mp3', translations: {} },
          { n: 4, phrase: '', dictionary: '', audio: null, translations: {} },
        ],
      },
      [clip('1.mp3'), clip('2.mp3'), clip('extra.mp3')],
    );
    expect(rows.map((r) => [r.n, r.file, r.error])).toEqual([
      [1, '/stage/1.mp3', null],
      [2, '/stage/2.mp3', null],
      [3, null, 'No clip named "missing.mp3" was uploaded.'],
      [4, null, 'The phrase is empty.'],
    ]);
    expect(errors).toEqual(['The clip "extra.mp3" matches no row of the text.']);
  });

  it('matches plain blocks by natural order and reports a count mismatch on the rows and in all', () => {
    const text = {
      format: 'blocks' as const,
      rows: [1, 2, 3].map((n) => ({ n, phrase: `P${n}`, dictionary: '', audio: null, translations: {} })),
    };
    const fits = matchClips(text, [clip('10.mp3'), clip('2.mp3'), clip('1.mp3')]);
    expect(fits.rows.map((r) => r.clip)).toEqual(['1.mp3', '2.mp3', '10.mp3']);
    expect(fits.errors).toEqual([]);
    const short = matchClips(text, [clip('1.mp3'), clip('2.mp3')]);
    expect(short.rows[2].error).toBe(
      'No clip for this phrase: The text has 3 phrases and the upload 2 clips.',
    );
    expect(short.errors).toEqual(['The text has 3 phrases and the upload 2 clips.']);
    const long = matchClips(
      text,
      ['1', '2', '3', '4'].map((n) => clip(`${n}.mp3`)),
    );
    expect(long.rows.every((r) => r.error === null)).toBe(true);
    expect(long.errors).toEqual([
      'The text has 3 phrases and the upload 4 clips.',
      'The clip "4.mp3" matches no phrase.',
    ]);
  });
});
