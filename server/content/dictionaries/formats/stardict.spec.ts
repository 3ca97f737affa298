import { openDictionary } from './open';
import { LIMITS, readAll, readError, Uploads } from './fixtures.testing';
import type { DictionaryFile } from './types';

interface Built {
  ifo: string;
  idx: Buffer;
  dict: Buffer;
  syn: Buffer;
}

/** A StarDict's files from entries (word and its data) and synonyms (word and the entry's number). */
function stardict(
  entries: [string, Buffer | string][],
  synonyms: [string, number][] = [],
  ifo: Record<string, string> = {},
  bits: 32 | 64 = 32,
): Built {
  const dict: Buffer[] = [];
  const idx: Buffer[] = [];
  let offset = 0;
  for (const [word, data] of entries) {
    const bytes = Buffer.from(data);
    const numbers = Buffer.alloc(bits === 64 ? 12 : 8);
    if (bits === 64) numbers.writeBigUInt64BE(BigInt(offset));
    else numbers.writeUInt32BE(offset);
    numbers.writeUInt32BE(bytes.length, bits === 64 ? 8 : 4);
    idx.push(Buffer.from(`${word}\0`), numbers);
    dict.push(bytes);
    offset += bytes.length;
  }
  const syn = synonyms.flatMap(([word, n]) => {
    const number = Buffer.alloc(4);
    number.writeUInt32BE(n);
    return [Buffer.from(`${word}\0`), number];
  });
  const idxBytes = Buffer.concat(idx);
  const values = {
    version: bits === 64 ? '3.0.0' : '2.4.2',
    bookname: 'Tiny <b>StarDict</b>',
    wordcount: String(entries.length),
    idxfilesize: String(idxBytes.length),
    ...(synonyms.length ? { synwordcount: String(synonyms.length) } : {}),
    ...(bits === 64 ? { idxoffsetbits: '64' } : {}),
    author: 'Someone',
    website: 'https://example.org/',
    description: 'Copyright 2024 Someone.<br>Licensed under CC BY-SA 4.0.',
    sametypesequence: 'm',
    ...ifo,
  };
  const lines = Object.entries(values)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}=${value}`);
  return {
    ifo: `StarDict's dict ifo file\n${lines.join('\n')}\n`,
    idx: idxBytes,
    dict: Buffer.concat(dict),
    syn: Buffer.concat(syn),
  };
}

describe('StarDict', () => {
  let uploads: Uploads;
  beforeEach(() => (uploads = new Uploads()));
  afterEach(() => uploads.remove());

  const files = (built: Built, options: { dz?: boolean; syn?: boolean } = {}): DictionaryFile[] => [
    uploads.write('tiny.ifo', built.ifo),
    uploads.write('tiny.idx', built.idx),
    options.dz ? uploads.dictzip('tiny.dict.dz', built.dict) : uploads.write('tiny.dict', built.dict),
    ...(options.syn ? [uploads.write('tiny.syn', built.syn)] : []),
  ];

  it('reads a dictzipped StarDict with synonyms: each synonym an entry with the definition it names', async () => {
    const built = stardict(
      [
        ['casa', 'house'],
        ['mesa', 'table\n\ndesk'],
      ],
      [['hogar', 0]],
    );
    const parts = files(built, { dz: true, syn: true });
    const opened = await openDictionary(parts, LIMITS);
    expect(opened.format).toBe('stardict');
    expect(opened.meta).toEqual({
      name: 'Tiny StarDict',
      licence: 'Copyright 2024 Someone.\nLicensed under CC BY-SA 4.0.',
      attribution: 'Tiny StarDict by Someone, https://example.org/',
    });
    expect(await readAll(opened)).toEqual([
      { headword: 'casa', definition: 'house', pos: null },
      { headword: 'mesa', definition: 'table\n\ndesk', pos: null },
      { headword: 'hogar', definition: 'house', pos: null },
    ]);
    expect(uploads.leftovers(parts)).toEqual([]);
  });

  it('reduces HTML definitions (sametypesequence=h) to text', async () => {
    const built = stardict([['casa', '<b>house</b><br>home &amp; hearth<script>alert(1)</script>']], [], {
      sametypesequence: 'h',
    });
    expect(await readAll(await openDictionary(files(built), LIMITS))).toEqual([
      { headword: 'casa', definition: 'house\nhome & hearth', pos: null },
    ]);
  });

  it('reads typed fields without sametypesequence, skipping phonetics and pictures', async () => {
    const picture = Buffer.alloc(4);
    picture.writeUInt32BE(3);
    const data = Buffer.concat([
      Buffer.from('t/ˈkasa/\0'),
      Buffer.from('P'),
      picture,
      Buffer.from([1, 2, 3]),
      Buffer.from('h<i>house</i>\0'),
      Buffer.from('mhome\0'),
    ]);
    const built = stardict(
      [
        ['casa', data],
        ['foto', Buffer.concat([Buffer.from('P'), picture, Buffer.from([1, 2, 3])])],
      ],
      [],
      {
        sametypesequence: '',
      },
    );
    const opened = await openDictionary(files(built), LIMITS);
    expect(await readAll(opened)).toEqual([{ headword: 'casa', definition: 'house\nhome', pos: null }]);
    expect(opened.skipped).toBe(1); // "foto" has no text
  });

  it('reads 64-bit offsets (version 3.0.0)', async () => {
    const built = stardict([['casa', 'house']], [], {}, 64);
    expect(await readAll(await openDictionary(files(built), LIMITS))).toEqual([
      { headword: 'casa', definition: 'house', pos: null },
    ]);
  });

  describe('refuses a broken file, naming it and where', () => {
    const opening = (parts: DictionaryFile[]) =>
      openDictionary(parts, LIMITS).then(
        () => 'opened',
        (error: Error) => error.message,
      );

    it('an .ifo without its first line', async () => {
      const built = stardict([['casa', 'house']]);
      expect(
        await opening(files({ ...built, ifo: built.ifo.replace("StarDict's dict ifo file", 'Hello') })),
      ).toBe("tiny.ifo, line 1: is not “StarDict's dict ifo file”: it is not a StarDict .ifo.");
    });
    it('an idxfilesize that is not the .idx’s size', async () => {
      const built = stardict([['casa', 'house']], [], { idxfilesize: '99' });
      expect(await opening(files(built))).toBe('tiny.ifo: says idxfilesize=99, but tiny.idx holds 13 bytes.');
    });
    it('a wordcount that is not the .idx’s', async () => {
      const built = stardict(
        [
          ['casa', 'house'],
          ['mesa', 'table'],
        ],
        [],
        { wordcount: '3' },
      );
      expect((await readError(await openDictionary(files(built), LIMITS))).message).toBe(
        'tiny.ifo: says wordcount=3, but tiny.idx holds 2 words.',
      );
    });
    it('an .idx truncated in the middle of a record', async () => {
      const built = stardict([
        ['casa', 'house'],
        ['mesa', 'table'],
      ]);
      const idx = built.idx.subarray(0, built.idx.length - 3);
      const cut = { ...built, idx, ifo: built.ifo.replace(/idxfilesize=\d+/, `idxfilesize=${idx.length}`) };
      expect((await readError(await openDictionary(files(cut), LIMITS))).message).toBe(
        'tiny.idx, offset 13: ends in the middle of a record (the file is truncated).',
      );
    });
    it('a record pointing past the end of the .dict', async () => {
      const built = stardict([['casa', 'house']]);
      expect(
        (await readError(await openDictionary(files({ ...built, dict: Buffer.from('hou') }), LIMITS)))
          .message,
      ).toBe(
        'tiny.idx, offset 0: points past the end of tiny.dict (offset 0 and size 5, but it holds 3 bytes).',
      );
    });
    it('a synonym naming a word the .idx does not have', async () => {
      const built = stardict([['casa', 'house']], [['hogar', 7]]);
      expect((await readError(await openDictionary(files(built, { syn: true }), LIMITS))).message).toBe(
        'tiny.syn, offset 0: names word 7 of tiny.idx, which holds 1.',
      );
    });
    it('a definition that is not UTF-8', async () => {
      const built = stardict([
        ['casa', 'house'],
        ['mesa', Buffer.from([0x74, 0xff])],
      ]);
      expect((await readError(await openDictionary(files(built), LIMITS))).message).toBe(
        'tiny.dict, offset 5: is not valid UTF-8.',
      );
    });
    it('more entries than the limit, before reading any', async () => {
      const built = stardict(
        [
          ['casa', 'house'],
          ['mesa', 'table'],
        ],
        [['hogar', 0]],
      );
      expect(
        await openDictionary(files(built, { syn: true }), { ...LIMITS, entries: 2 }).then(
          () => 'opened',
          (error: Error) => error.message,
        ),
      ).toBe('tiny.ifo: announces 3 entries; a dictionary may have 2.');
    });
  });
});
