import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvFields, readFormList } from './form-list';
import type { FormLemma } from './types';

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'form-list-spec-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(name: string, content: string): Promise<FormLemma[] | string> {
  const path = join(dir, name);
  writeFileSync(path, content);
  const pairs: FormLemma[] = [];
  try {
    for await (const pair of readFormList({ name, path, size: content.length })) pairs.push(pair);
  } catch (error) {
    return (error as Error).message;
  }
  return pairs;
}

describe('readFormList', () => {
  it('reads a TSV with a header and comments, giving repeated pairs again rather than remembering them', async () => {
    expect(await read('f.tsv', '\ufeffform\tlemma\n# irregular\n\nfue\tir\r\nfue\tser\nfue\tir\n')).toEqual([
      { form: 'fue', lemma: 'ir' },
      { form: 'fue', lemma: 'ser' },
      { form: 'fue', lemma: 'ir' },
    ]);
  });

  it('reads a CSV with quotes', async () => {
    expect(await read('f.csv', 'Form,Lemma\n"dijo",decir\n"a ""b""",c\n')).toEqual([
      { form: 'dijo', lemma: 'decir' },
      { form: 'a "b"', lemma: 'c' },
    ]);
    expect(csvFields('a,"b,c",d')).toEqual(['a', 'b,c', 'd']);
  });

  it('names the file and the line of a broken one', async () => {
    expect(await read('f.tsv', 'fue\tir\nfui\n')).toBe(
      'f.tsv, line 2: expected a form and a lemma separated by a tab, found 1 field(s)',
    );
    expect(await read('f.tsv', 'fue\t\n')).toBe('f.tsv, line 1: the form and the lemma may not be empty');
    // A NUL would reach the database (PostgreSQL refuses it in text): refused here, by its line.
    expect(await read('f.tsv', 'fue\tir\na\0b\tc\n')).toBe(
      'f.tsv, line 2: a form or lemma holds a control character',
    );
    expect(await read('f.csv', 'a,"b\n')).toBe(
      'f.csv, line 1: a quoted field is not closed (fields cannot span lines)',
    );
    expect(await read('f.tsv', `fue\tir\n${'#'.repeat(70_000)}\n`)).toBe(
      'f.tsv, line 2: is longer than 65536 bytes.',
    );
  });

  it('refuses bytes that are not UTF-8, naming the line', async () => {
    const path = join(dir, 'latin1.tsv');
    writeFileSync(path, Buffer.from('fue\tir\nfu\xe9\tir\n', 'latin1'));
    const pairs = async () => {
      for await (const pair of readFormList({ name: 'latin1.tsv', path, size: 0 })) void pair;
    };
    await expect(pairs()).rejects.toThrow('latin1.tsv, line 2: is not valid UTF-8.');
  });
});
