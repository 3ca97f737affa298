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
  it('reads a TSV with a header, comments and repeated pairs', async () => {
    expect(await read('f.tsv', '\ufeffform\tlemma\n# irregular\n\nfue\tir\r\nfue\tser\nfue\tir\n')).toEqual([
      { form: 'fue', lemma: 'ir' },
      { form: 'fue', lemma: 'ser' },
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
    expect(await read('f.csv', 'a,"b\n')).toBe(
      'f.csv, line 1: a quoted field is not closed (fields cannot span lines)',
    );
  });
});
