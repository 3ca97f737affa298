import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DictionaryFileError, type DictionaryFile } from '../../dictionaries/formats/types';
import type { FormLemma } from '../types';
import { parseAff, type Affixes } from './aff';
import { expandStem } from './expand';
import { expandHunspell } from './hunspell';

const lines = (text: string) => text.split('\n').map((line, i) => ({ text: line, number: i + 1 }));
const aff = (text: string): Affixes => parseAff(lines(text), 'test.aff');
const forms = (affixes: Affixes, stem: string, flags: string[]) =>
  [...expandStem(affixes, stem, flags)].sort();

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'hunspell-spec-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): DictionaryFile {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { name, path, size: Buffer.byteLength(content) };
}

async function expandFiles(affText: string | Buffer, dicText: string | Buffer): Promise<FormLemma[]> {
  const pairs: FormLemma[] = [];
  for await (const pair of expandHunspell(file('t.aff', affText), file('t.dic', dicText))) pairs.push(pair);
  return pairs;
}

async function failure(affText: string | Buffer, dicText: string | Buffer): Promise<string> {
  try {
    await expandFiles(affText, dicText);
  } catch (error) {
    if (error instanceof DictionaryFileError) return error.message;
    throw error;
  }
  throw new Error('no failure');
}

describe('Hunspell expansion', () => {
  it('adds suffixes whose strip and condition fit the stem', () => {
    const affixes = aff('SFX S Y 3\nSFX S 0 s [aeiou]\nSFX S 0 es [^aeiou]\nSFX S z ces z\n');
    expect(forms(affixes, 'casa', ['S'])).toEqual(['casa', 'casas']);
    expect(forms(affixes, 'canción', ['S'])).toEqual(['canción', 'canciónes']);
    expect(forms(affixes, 'luz', ['S'])).toEqual(['luces', 'luz', 'luzes']);
    expect(forms(affixes, 'casa', [])).toEqual(['casa']);
  });

  it('adds prefixes, and both when both classes are cross-product', () => {
    const affixes = aff(
      'PFX R Y 1\nPFX R 0 re .\nPFX N N 1\nPFX N 0 in [^r]\nSFX S Y 1\nSFX S 0 s .\nSFX T N 1\nSFX T 0 te .\n',
    );
    expect(forms(affixes, 'hacer', ['R', 'S'])).toEqual(['hacer', 'hacers', 'rehacer', 'rehacers']);
    // N is not cross-product: "in…s" is not a form; nor is "re…te" (T is not).
    expect(forms(affixes, 'hacer', ['N', 'S'])).toEqual(['hacer', 'hacers', 'inhacer']);
    expect(forms(affixes, 'hacer', ['R', 'T'])).toEqual(['hacer', 'hacerte', 'rehacer']);
    // A prefix's condition applies to the start of the stem.
    expect(forms(affixes, 'romper', ['N'])).toEqual(['romper']);
  });

  it("follows a suffix's continuation flags to a second suffix", () => {
    // es_ES: SFX A r ción/S ar, and S makes the plural.
    const affixes = aff('SFX A Y 1\nSFX A r ción/S ar\nSFX S Y 2\nSFX S 0 s [aeiou]\nSFX S ón ones ón\n');
    expect(forms(affixes, 'cantar', ['A'])).toEqual(['cantaciones', 'cantación', 'cantar']);
  });

  it('leaves out NEEDAFFIX stems and affixes, ONLYINCOMPOUND and FORBIDDENWORD ones', () => {
    const affixes = aff(
      'NEEDAFFIX X\nONLYINCOMPOUND C\nFORBIDDENWORD F\nSFX S Y 3\nSFX S 0 s .\nSFX S 0 ito/X .\nSFX S 0 az/C .\nSFX P Y 1\nSFX P 0 s .\n',
    );
    expect(forms(affixes, 'perr', ['X', 'S'])).toEqual(['perrs']);
    expect(forms(affixes, 'gato', ['C', 'S'])).toEqual([]);
    expect(forms(affixes, 'mal', ['F', 'S'])).toEqual([]);
    // "gatoito" needs another affix: alone it is not a form.
    expect(forms(affixes, 'gato', ['S'])).toEqual(['gato', 'gatos']);
    const continued = aff('NEEDAFFIX X\nSFX S Y 1\nSFX S 0 it/XP .\nSFX P Y 1\nSFX P 0 os .\n');
    expect(forms(continued, 'gat', ['S'])).toEqual(['gat', 'gatitos']);
  });

  it('combines the halves of a circumfix only together', () => {
    const affixes = aff('CIRCUMFIX X\nPFX G Y 1\nPFX G 0 ge/X .\nSFX T Y 2\nSFX T 0 t/X .\nSFX T 0 e .\n');
    expect(forms(affixes, 'lieb', ['G', 'T'])).toEqual(['geliebt', 'lieb', 'liebe']);
  });

  it('reads long and numeric flags, and AF aliases', () => {
    const long = aff('FLAG long\nSFX Aa Y 1\nSFX Aa 0 s .\nSFX Bb Y 1\nSFX Bb 0 n .\n');
    expect(forms(long, 'gato', ['Aa', 'Bb'])).toEqual(['gato', 'gaton', 'gatos']);
    const num = aff('FLAG num\nSFX 101 Y 1\nSFX 101 0 s/7 .\nSFX 7 Y 1\nSFX 7 0 a .\n');
    expect(forms(num, 'gato', ['101'])).toEqual(['gato', 'gatos', 'gatosa']);
  });

  it('refuses a malformed .aff, naming the line', () => {
    expect(() => aff('SFX S Y 2\nSFX S 0 s .\n')).toThrow(
      'test.aff, line 1: SFX S announces 2 lines, the file ends after 1',
    );
    expect(() => aff('SFX S Y 1\nSFX S 0 s [aeiou\n')).toThrow(
      'test.aff, line 2: the condition "[aeiou" has an unclosed "["',
    );
    expect(() => aff('SFX S Y two\n')).toThrow('test.aff, line 1: expected "SFX flag Y|N count"');
    expect(() => aff('FLAG num\nSFX 1 Y 1\nSFX 1 0 s/x .\n')).toThrow(
      'test.aff, line 3: "x" is not a list of numeric flags',
    );
  });

  it('streams (form, stem) pairs from files, once each, with escapes, morphology and AF aliases', async () => {
    const affText =
      'SET UTF-8\nFLAG long\nAF 1\nAF SsPp\nSFX Ss Y 1\nSFX Ss 0 s .\nPFX Pp Y 1\nPFX Pp 0 re .\n';
    const pairs = await expandFiles(
      affText,
      '4\nhacer/1 po:verb\nhacer/Ss\n1\\/2\tpo:number\nReino Unido \n',
    );
    expect(pairs).toEqual([
      { form: 'hacer', lemma: 'hacer' },
      { form: 'hacers', lemma: 'hacer' },
      { form: 'rehacers', lemma: 'hacer' },
      { form: 'rehacer', lemma: 'hacer' },
      { form: '1/2', lemma: '1/2' },
      { form: 'Reino Unido', lemma: 'Reino Unido' },
    ]);
  });

  it('decodes the SET encoding of both files', async () => {
    const affText = Buffer.from('SET ISO8859-1\nSFX S Y 1\nSFX S 0 s .\n', 'latin1');
    expect(await expandFiles(affText, Buffer.from('1\ncanción/S\n', 'latin1'))).toEqual([
      { form: 'canción', lemma: 'canción' },
      { form: 'cancións', lemma: 'canción' },
    ]);
  });

  it('refuses a broken .dic, naming the line', async () => {
    const affText = 'SFX S Y 1\nSFX S 0 s .\n';
    expect(await failure(affText, 'gato/S\n')).toBe(
      't.dic, line 1: the first line should be the number of words',
    );
    expect(await failure(`FLAG long\n${affText.replace(/ S /g, ' Sa ')}`, '2\ngato/Sa\nperro/Sab\n')).toBe(
      't.dic, line 3: "Sab" is not a list of two-character flags',
    );
    expect(await failure(affText, '2\ngato/S\npe\0rro\n')).toBe(
      't.dic, line 3: the stem holds a control character',
    );
    expect(await failure('SET UTF-8\n', Buffer.from('2\ngato\ncanci\xf3n\n', 'latin1'))).toBe(
      't.dic, line 3: is not valid UTF-8.',
    );
    expect(await failure('SET ISO8859-7\n', Buffer.from('1\n\xff\n', 'latin1'))).toBe(
      't.dic, line 2: is not valid iso-8859-7 text.',
    );
    expect(await failure('SET ISCII-DEVANAGARI\n', '1\nx\n')).toBe(
      't.aff, line 1: the encoding "ISCII-DEVANAGARI" is not supported',
    );
  });

  it('refuses UTF-16, whose line breaks are not one byte, naming the SET line', async () => {
    const utf16 = (text: string) => Buffer.from(`\ufeff${text}`, 'utf16le');
    expect(await failure(utf16('SET UTF-16LE\n'), utf16('1\nx\n'))).toBe(
      't.aff, line 1: is UTF-16, which is not supported: save the files as UTF-8',
    );
    expect(await failure('SET UTF-8\n', utf16('1\nx\n'))).toBe(
      't.dic, line 1: is UTF-16, which is not supported: save the files as UTF-8',
    );
    expect(await failure('# big endian\nSET UTF-16BE\n', '1\nx\n')).toBe(
      't.aff, line 2: the encoding "UTF-16BE" is UTF-16, which is not supported: save the files as UTF-8',
    );
  });

  it('refuses a line longer than 64 KiB, naming it', async () => {
    expect(await failure('SFX S Y 1\nSFX S 0 s .\n', `2\ngato/S\n${'a'.repeat(70_000)}\n`)).toBe(
      't.dic, line 3: is longer than 65536 bytes.',
    );
  });
});

describe("Debian's es_ES", () => {
  it('expands to about 714,000 forms of 67,500 stems, "casas" from casa and casar', async () => {
    const wanted = new Map<string, string[]>(['casas', 'hablamos', 'canciones'].map((word) => [word, []]));
    let pairs = 0;
    const forms = new Set<string>();
    const stems = new Set<string>();
    const source = expandHunspell(
      { name: 'es_ES.aff', path: '/usr/share/hunspell/es_ES.aff', size: 0 },
      { name: 'es_ES.dic', path: '/usr/share/hunspell/es_ES.dic', size: 0 },
    );
    for await (const { form, lemma } of source) {
      pairs++;
      forms.add(form);
      stems.add(lemma);
      wanted.get(form)?.push(lemma);
    }
    expect(Object.fromEntries(wanted)).toEqual({
      casas: ['casa', 'casar'],
      hablamos: ['hablar'],
      canciones: ['canción'],
    });
    // Measured: 727,947 pairs, 713,707 distinct forms, 67,518 stems (docs/word-forms.md).
    expect(pairs).toBeGreaterThan(650_000);
    expect(pairs).toBeLessThan(800_000);
    expect(forms.size).toBeLessThanOrEqual(pairs);
    expect(stems.size).toBeGreaterThan(60_000);
  }, 300_000);
});
