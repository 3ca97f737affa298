import { readFileSync, statSync } from 'node:fs';
import { openDictionary } from './open';
import { dictd, LIMITS, readAll, readError, Uploads } from './fixtures.testing';
import { DictionaryFileError, type DictionaryFile } from './types';

const SHORT = '00-database-short\n     Tiny FreeDict Dictionary ver. 0.1\n';
const INFO = `Tiny FreeDict Dictionary

Publisher: FreeDict.

Availability:

    Copyright (C) 2024 Someone.
    Available under the terms of the GNU General Public License ver. 2.0 and
  any later version.
    This program is distributed in the hope that it will be useful, but
  WITHOUT ANY WARRANTY.

Published at: https://freedict.org/
`;
const ENTRIES: [string, string][] = [
  ['00databaseshort', SHORT],
  ['00databaseinfo', INFO],
  ['00databaseurl', 'unknown\n'],
  ['casa', 'casa /kˈasa/ <n, fem>\nhouse, home\n'],
  ['gehen', 'Gehen /ɡˈeːən/ <neut, n, sg>\ngoing <n>\n'],
  ['ab', 'Aussetzbetrieb (AB) <masc, n, sg>\nintermittent operation\n'],
  ['cuánto tiempo', '¿cuánto tiempo? /kwˈanto/\nhow long?\n'],
];

describe('dictd', () => {
  let uploads: Uploads;
  beforeEach(() => (uploads = new Uploads()));
  afterEach(() => uploads.remove());

  const files = (entries = ENTRIES, dz = true) => {
    const { index, dict } = dictd(entries);
    return [
      uploads.write('tiny.index', index),
      dz ? uploads.dictzip('tiny.dict.dz', dict) : uploads.write('tiny.dict', dict),
    ];
  };

  it('reads a dictzipped FreeDict: the printed headword, its meaning and part of speech, the header as metadata', async () => {
    const parts = files();
    const opened = await openDictionary(parts, LIMITS);
    expect(opened.format).toBe('dictd');
    expect(opened.meta).toEqual({
      name: 'Tiny FreeDict Dictionary',
      licence:
        'Copyright (C) 2024 Someone. Available under the terms of the GNU General Public License ver. 2.0 and any later version.',
      attribution: 'Tiny FreeDict Dictionary ver. 0.1 (FreeDict, GPL), https://freedict.org/',
    });
    expect(await readAll(opened)).toEqual([
      { headword: 'casa', definition: 'house, home', pos: 'n, fem' },
      { headword: 'Gehen', definition: 'going <n>', pos: 'neut, n, sg' },
      { headword: 'ab', definition: 'Aussetzbetrieb (AB) <masc, n, sg>\nintermittent operation', pos: null },
      { headword: '¿cuánto tiempo?', definition: 'how long?', pos: null },
    ]);
    expect(uploads.leftovers(parts)).toEqual([]); // close() removed the decompressed copy
  });

  it('leaves control characters (a NUL) out of the metadata, which no database column takes', async () => {
    const withNul = ENTRIES.map(([word, text]): [string, string] => [
      word,
      word.startsWith('00') ? text.replace('Tiny', 'Ti\0ny').replace('FreeDict.', 'Free\0Dict.') : text,
    ]);
    const opened = await openDictionary(files(withNul), LIMITS);
    expect(opened.meta).toMatchObject({
      name: 'Tiny FreeDict Dictionary',
      attribution: 'Tiny FreeDict Dictionary ver. 0.1 (FreeDict, GPL), https://freedict.org/',
    });
    await opened.close();
  });

  it('reads a plain .dict the same way', async () => {
    const entries = await readAll(await openDictionary(files(ENTRIES, false), LIMITS));
    expect(entries.map((entry) => entry.headword)).toEqual(['casa', 'Gehen', 'ab', '¿cuánto tiempo?']);
  });

  it('leaves out headwords over 200 characters and entries with no meaning, and counts them', async () => {
    const opened = await openDictionary(
      files([
        ['x'.repeat(201), 'long\n'],
        ['solo', 'solo /ˈsolo/\n'],
        ['casa', 'casa\nhouse\n'],
      ]),
      LIMITS,
    );
    expect(await readAll(opened)).toEqual([{ headword: 'casa', definition: 'house', pos: null }]);
    expect(opened.skipped).toBe(2);
  });

  it('cuts a definition over the limit, ending it with an ellipsis', async () => {
    const opened = await openDictionary(files([['casa', `casa\n${'house '.repeat(100)}\n`]]), {
      ...LIMITS,
      definitionChars: 20,
    });
    expect(await readAll(opened)).toEqual([
      { headword: 'casa', definition: 'house house house h…', pos: null },
    ]);
  });

  describe('refuses a broken file, naming it and the line or offset', () => {
    const broken = async (index: string, dict: string | Buffer, limits = LIMITS) =>
      (
        await readError(
          await openDictionary(
            [uploads.write('tiny.index', index), uploads.write('tiny.dict', dict)],
            limits,
          ),
        )
      ).message;

    it('an index line without three fields', async () => {
      expect(await broken('casa\tA\tF\nbad line\n', 'casa\nhouse\n')).toBe(
        'tiny.index, line 2: has 1 tab-separated field; an index line has three (headword, offset, length).',
      );
    });
    it('an offset that is not dictd base 64', async () => {
      expect(await broken('casa\tA\tF\nmesa\tA*\tB\n', 'casa\nhouse\n')).toBe(
        'tiny.index, line 2: has an offset (“A*”) that is not dictd base 64.',
      );
    });
    it('a definition past the end of the .dict', async () => {
      expect(await broken('casa\tA\tZ\n', 'casa\nhouse\n')).toBe(
        'tiny.index, line 1: points past the end of tiny.dict (offset 0 and length 25, but it holds 11 bytes).',
      );
    });
    it('a definition that is not UTF-8', async () => {
      expect(
        await broken(
          'casa\tA\tE\nmesa\tE\tE\n',
          Buffer.from([0x61, 0x0a, 0x62, 0x0a, 0xff, 0xfe, 0x0a, 0x0a]),
        ),
      ).toBe('tiny.dict, offset 4: is not valid UTF-8.');
    });
    it('an index line that is not UTF-8', async () => {
      const index = Buffer.concat([
        Buffer.from('casa\tA\tF\n'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('\tA\tF\n'),
      ]);
      const error = await readError(
        await openDictionary(
          [uploads.write('tiny.index', index), uploads.write('tiny.dict', 'casa\nhouse\n')],
          LIMITS,
        ),
      );
      expect(error.message).toBe('tiny.index, line 2: is not valid UTF-8.');
    });
    it('more entries than the limit', async () => {
      const { index, dict } = dictd([
        ['a', 'a\none\n'],
        ['b', 'b\ntwo\n'],
        ['c', 'c\nthree\n'],
      ]);
      expect(await broken(index, dict, { ...LIMITS, entries: 2 })).toBe(
        'tiny.index, line 3: holds more than 2 entries, the most a dictionary may have.',
      );
    });
  });

  it('refuses a corrupt .dict.dz at opening, naming it and the offset, and leaves nothing behind', async () => {
    const { index, dict } = dictd([['casa', 'casa\nhouse\n'.repeat(2000)]]);
    const good = uploads.dictzip('x', dict);
    const bytes = readFileSync(good.path);
    const parts = [
      uploads.write('tiny.index', index),
      uploads.write('tiny.dict.dz', bytes.subarray(0, bytes.length - 20)),
    ];
    const error = await openDictionary(parts, LIMITS).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(DictionaryFileError);
    expect((error as Error).message).toMatch(
      /^tiny\.dict\.dz, offset \d+: is not valid gzip data \(unexpected end of file\)\.$/,
    );
    expect(uploads.leftovers(parts)).toEqual([]);
  });

  it('refuses a .dict.dz that is not gzip', async () => {
    const { index, dict } = dictd([['casa', 'casa\nhouse\n']]);
    const error = await openDictionary(
      [uploads.write('tiny.index', index), uploads.write('tiny.dict.dz', dict)],
      LIMITS,
    ).catch((caught: Error) => caught);
    expect((error as Error).message).toBe('tiny.dict.dz, offset 0: is not gzip (dictzip) data.');
  });

  it('refuses a .dict.dz that decompresses past its limit', async () => {
    const { index, dict } = dictd([['casa', 'casa\nhouse\n'.repeat(100000)]]);
    const parts = [uploads.write('tiny.index', index), uploads.dictzip('tiny.dict.dz', dict)];
    const error = await openDictionary(parts, { ...LIMITS, decompressedBytes: 4096 }).catch(
      (caught: Error) => caught,
    );
    expect((error as Error).message).toBe('tiny.dict.dz: decompresses to more than 4096 bytes.');
    expect(uploads.leftovers(parts)).toEqual([]);
  });
});

describe('dictd: Debian’s FreeDict dictionaries', () => {
  const debian = (name: string): DictionaryFile[] =>
    ['index', 'dict.dz'].map((ending) => {
      const path = `/usr/share/dictd/${name}.${ending}`;
      return { name: `${name}.${ending}`, path, size: statSync(path).size };
    });

  it('reads Spanish-English: its name, licence and attribution, and "casa" is a house', async () => {
    const opened = await openDictionary(debian('freedict-spa-eng'), {
      entries: 1_000_000,
      definitionChars: 10_000,
    });
    expect(opened.meta.name).toBe('Spanish-English FreeDict Dictionary');
    expect(opened.meta.licence).toMatch(/^Copyright \(C\) 1999-2019 .* GNU General Public License/);
    expect(opened.meta.attribution).toBe(
      'Spanish-English FreeDict Dictionary ver. 0.3.1 (FreeDict, GPL), http://freedict.org/',
    );
    const entries = await readAll(opened);
    expect(entries.length).toBeGreaterThan(4400);
    expect(entries.length).toBeLessThan(4600);
    expect(entries.find((entry) => entry.headword === 'casa')?.definition).toContain('house');
    expect(entries.find((entry) => entry.headword === 'Alemania')?.definition).toBe('Germany');
    expect(entries.some((entry) => entry.headword.startsWith('00'))).toBe(false);
  });

  it('streams German-English, half a million entries, one at a time', async () => {
    const opened = await openDictionary(debian('freedict-deu-eng'), {
      entries: 1_000_000,
      definitionChars: 10_000,
    });
    expect(opened.meta.name).toBe('German - English Ding/FreeDict dictionary');
    let count = 0;
    let house = false;
    const started = Date.now();
    let peak = process.memoryUsage().rss;
    for await (const entry of opened.entries()) {
      count++;
      if (entry.headword === 'Haus' && /^house\b/.test(entry.definition)) house = true;
      if (count % 50_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    await opened.close();
    // A figure for the report and the bench, not an assertion (docs/testing.md: no timed assertions).
    console.log(
      `freedict-deu-eng: ${count} entries, ${opened.skipped} skipped, ${Date.now() - started} ms, peak RSS ${Math.round(peak / 2 ** 20)} MiB`,
    );
    expect(count).toBeGreaterThan(450_000);
    expect(house).toBe(true);
  }, 300_000);
});
