import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { DataSource } from 'typeorm';
import { sql } from '../platform/database/sql';
import { ApiClient, newAdmin, newMember } from './api-client';
import { startServer, tempStorage, type TestServer } from './harness';
import { DictionarySweep } from '../content/dictionaries/dictionary-sweep';

/**
 * The dictionaries' admin API (docs/dictionaries.md): imports of Debian's FreeDict files (installed by
 * .ci/run) and of TSV, their metadata, replacement and deletion by generations, and what a broken file
 * leaves behind: nothing.
 */

const FREEDICT = '/usr/share/dictd/freedict-spa-eng';
const SPA_INDEX = readFileSync(`${FREEDICT}.index`);
const SPA_DICT = readFileSync(`${FREEDICT}.dict.dz`);
/** Headwords of the Spanish-English index: its lines less the six 00-database-* entries. */
const SPA_HEADWORDS = SPA_INDEX.toString('utf8').trimEnd().split('\n').length - 6;

type Dictionary = {
  id: number;
  name: string;
  source: string;
  target: string;
  format: string;
  entries: number;
  licence: string | null;
  attribution: string | null;
  created_at: string;
  updated_at: string;
};
type One = { data: Dictionary };
type Many = { data: Dictionary[] };
type Refusal = { message: string; errors?: Record<string, string[]> };

/** A multipart body: the files (name → contents), then the text fields. */
function upload(files: Record<string, Buffer | string>, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, contents] of Object.entries(files)) data.append('files', new Blob([contents]), name);
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

/** A TSV of `n` generated entries, headwords `<prefix>0`, `<prefix>1`, … */
const generatedTsv = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}\tmeaning number ${i}\tnoun`).join('\n') + '\n';

/**
 * A StarDict dictionary's four files (`name`.ifo, .idx, .dict, .syn): `words` as headword and meaning, and
 * `synonyms`, each a headword for the first word's entry.
 */
function starDict(name: string, words: Array<[string, string]>, synonyms: string[]): Record<string, Buffer> {
  const idx: Buffer[] = [];
  let offset = 0;
  for (const [word, meaning] of words) {
    const numbers = Buffer.alloc(8);
    numbers.writeUInt32BE(offset);
    numbers.writeUInt32BE(Buffer.byteLength(meaning), 4);
    idx.push(Buffer.from(`${word}\0`), numbers);
    offset += Buffer.byteLength(meaning);
  }
  const idxBytes = Buffer.concat(idx);
  const ifo = [
    "StarDict's dict ifo file",
    'version=2.4.2',
    `bookname=${name}`,
    `wordcount=${words.length}`,
    `idxfilesize=${idxBytes.length}`,
    `synwordcount=${synonyms.length}`,
    'sametypesequence=m',
  ].join('\n');
  const syn = synonyms.map((word) => Buffer.concat([Buffer.from(`${word}\0`), Buffer.alloc(4)]));
  return {
    [`${name}.ifo`]: Buffer.from(`${ifo}\n`),
    [`${name}.idx`]: idxBytes,
    [`${name}.dict`]: Buffer.from(words.map(([, meaning]) => meaning).join('')),
    [`${name}.syn`]: Buffer.concat(syn),
  };
}

describe('Dictionaries (admin)', () => {
  let server: TestServer;
  let admin: ApiClient;
  let member: ApiClient;
  let visitor: ApiClient;
  let db: DataSource;

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    member = (await newMember(server)).client;
    visitor = new ApiClient(server);
    db = server.app.get(DataSource);
  });
  afterAll(() => server.close());

  /** Entry rows by dictionary and generation, and the dictionaries rows: what a crash would leave. */
  const rowsOf = async (id?: number) =>
    (
      await sql<Array<{ dictionary_id: number; generation: number; n: number | string }>>(
        db,
        `SELECT dictionary_id, generation, COUNT(*) AS n FROM dictionary_entries
         ${id === undefined ? '' : 'WHERE dictionary_id = ?'} GROUP BY dictionary_id, generation
         ORDER BY dictionary_id, generation`,
        id === undefined ? [] : [id],
      )
    ).map((row) => ({ id: Number(row.dictionary_id), generation: Number(row.generation), n: Number(row.n) }));
  const dictionaryRows = async () =>
    (
      await sql<Array<{ id: number; generation: number }>>(
        db,
        `SELECT id, generation FROM dictionaries ORDER BY id`,
      )
    ).map((row) => ({ id: Number(row.id), generation: Number(row.generation) }));
  const headwords = async (id: number) =>
    (
      await sql<Array<{ headword: string; folded: string; definition: string; pos: string | null }>>(
        db,
        `SELECT e.headword, e.folded, e.definition, e.pos FROM dictionary_entries e
         JOIN dictionaries d ON d.id = e.dictionary_id AND d.generation = e.generation
         WHERE e.dictionary_id = ? ORDER BY e.id`,
        [id],
      )
    ).map((row) => ({ ...row }));
  const list = async () => (await admin.get<Many>('admin/dictionary')).body.data;

  const tsvDictionary = async (fields: Record<string, string> = {}, tsv = 'uno\tone\n') => {
    const res = await admin.post<One>(
      'admin/dictionary',
      upload({ 'words.tsv': tsv }, { source: 'es', target: 'en', ...fields }),
    );
    expect(res.status).toBe(201);
    return res.body.data;
  };

  it('imports FreeDict Spanish-English, its name, licence and attribution taken from the file', async () => {
    const res = await admin.post<One>(
      'admin/dictionary',
      upload(
        { 'freedict-spa-eng.index': SPA_INDEX, 'freedict-spa-eng.dict.dz': SPA_DICT },
        { source: 'es', target: 'en' },
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'Spanish-English FreeDict Dictionary',
      source: 'es',
      target: 'en',
      format: 'dictd',
      entries: SPA_HEADWORDS,
      licence: expect.stringMatching(/^Copyright \(C\) 1999-2019 .*GNU General Public License/s),
      attribution: 'Spanish-English FreeDict Dictionary ver. 0.3.1 (FreeDict, GPL), http://freedict.org/',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const { id } = res.body.data;
    expect(await list()).toContainEqual(res.body.data);
    // Every entry of the live generation, and no other.
    expect(await rowsOf(id)).toEqual([{ id, generation: 1, n: SPA_HEADWORDS }]);
    const entries = await headwords(id);
    expect(entries).toContainEqual(expect.objectContaining({ headword: 'a bordo', folded: 'a bordo' }));
    expect(entries.find((entry) => entry.headword === 'a bordo')?.definition).toMatch(/aboard/);
  });

  it('imports a TSV with the metadata of the form, and folds its headwords', async () => {
    const res = await admin.post<One>(
      'admin/dictionary',
      upload(
        { 'mine.tsv': 'casa\thouse\tnoun\nÁrbol\ttree\n' },
        {
          source: 'ES',
          target: 'en-gb',
          name: '  Small Spanish  ',
          licence: 'CC BY-SA 4.0',
          attribution: 'Words by the Lingonovel team.',
        },
      ),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual(
      expect.objectContaining({
        name: 'Small Spanish',
        source: 'es',
        target: 'en-GB',
        format: 'tsv',
        entries: 2,
        licence: 'CC BY-SA 4.0',
        attribution: 'Words by the Lingonovel team.',
      }),
    );
    expect(await headwords(res.body.data.id)).toEqual([
      { headword: 'casa', folded: 'casa', definition: 'house', pos: 'noun' },
      { headword: 'Árbol', folded: 'arbol', definition: 'tree', pos: null },
    ]);
    // Without a name in the form or the file, the file's name.
    expect((await tsvDictionary()).name).toBe('words');
  });

  it('imports a StarDict dictionary (.ifo, .idx, .dict and .syn)', async () => {
    const files = starDict(
      'Tiny StarDict',
      [
        ['casa', 'house'],
        ['perro', 'dog'],
      ],
      ['hogar'],
    );
    const res = await admin.post<One>('admin/dictionary', upload(files, { source: 'es', target: 'en' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual(expect.objectContaining({ name: 'Tiny StarDict', format: 'stardict' }));
    const entries = await headwords(res.body.data.id);
    expect(entries.map((entry) => [entry.headword, entry.definition])).toEqual(
      expect.arrayContaining([
        ['casa', 'house'],
        ['perro', 'dog'],
        ['hogar', 'house'],
      ]),
    );
    expect(res.body.data.entries).toBe(entries.length);
  });

  it('goes on with an import whose client hung up once its files were sent, to the last part read', async () => {
    const n = 60_000;
    const name = `Hung up ${Date.now()}`;
    const words = Array.from({ length: n }, (_, i): [string, string] => [`palabra${i}`, `word ${i}`]);
    const form = new Response(upload(starDict(name, words, ['sinonimo']), { source: 'es', target: 'en' }));
    const body = Buffer.from(await form.arrayBuffer());
    const { email, password } = await newAdmin(server);
    const login = await new ApiClient(server).post<{ token: string }>('user/login', { email, password });
    const answered = { yes: false };
    const req = httpRequest(`${server.baseUrl}/api/v1/admin/dictionary`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${login.body.token}`,
        'Content-Type': form.headers.get('content-type')!,
        'Content-Length': body.length,
      },
    });
    const total = async () =>
      Number(
        (await sql<Array<{ n: number | string }>>(db, 'SELECT COUNT(*) AS n FROM dictionary_entries'))[0].n,
      );
    const before = await total();
    req.on('response', () => (answered.yes = true));
    req.on('error', () => undefined); // the socket destroyed below
    req.end(body);
    // The server has the files and writes the .idx's entries: the .syn is read only after them.
    const started = Date.now();
    while ((await total()) === before && Date.now() - started < 20_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(answered.yes).toBe(false);
    req.destroy();

    // The import ends as usual, with the synonym from the last file read.
    let found: Dictionary | undefined;
    const hungUp = Date.now();
    while (!found && Date.now() - hungUp < 30_000) {
      found = (await list()).find((d) => d.name === name);
      if (!found) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(found).toMatchObject({ name, entries: n + 1 });
    expect((await headwords(found!.id)).find((e) => e.headword === 'sinonimo')?.definition).toBe('word 0');
    expect((await admin.delete(`admin/dictionary/${found!.id}`)).status).toBe(200);
  }, 90_000);

  it('refuses a broken file with a 422 naming the file and the line, and keeps nothing of it', async () => {
    const before = { listed: await list(), rows: await rowsOf(), dictionaries: await dictionaryRows() };
    // Far enough in that batches of entries were written before the parser met it.
    const lines = generatedTsv(3000, 'gut').split('\n');
    lines[2500] = 'broken line without a definition';
    const res = await admin.post<Refusal>(
      'admin/dictionary',
      upload({ 'broken.tsv': lines.join('\n') }, { source: 'de', target: 'en' }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors?.files).toEqual([expect.stringMatching(/^broken\.tsv, line 2501: /)]);
    expect(res.body.message).toBe(res.body.errors?.files[0]);
    expect(await list()).toEqual(before.listed);
    expect(await rowsOf()).toEqual(before.rows);
    expect(await dictionaryRows()).toEqual(before.dictionaries);
  });

  it('refuses what is not a dictionary, and bad languages, with 422', async () => {
    const languages = await admin.post<Refusal>(
      'admin/dictionary',
      upload({ 'words.tsv': 'uno\tone\n' }, { source: 'not a tag', target: '' }),
    );
    expect(languages.status).toBe(422);
    expect(Object.keys(languages.body.errors ?? {}).sort()).toEqual(['source', 'target']);
    const none = await admin.post<Refusal>('admin/dictionary', { source: 'es', target: 'en' });
    expect(none.status).toBe(422);
    expect(none.body.errors?.files).toEqual(['Choose the files of the dictionary.']);
    const empty = await admin.post<Refusal>(
      'admin/dictionary',
      upload({ 'empty.tsv': '' }, { source: 'es', target: 'en' }),
    );
    expect(empty.status).toBe(422);
    expect(empty.body.errors?.files?.[0]).toMatch(/empty\.tsv|no dictionary entries/);
  });

  it('replaces the entries and keeps the id; a failed replacement keeps the old entries live', async () => {
    const made = await tsvDictionary(
      { name: 'Replaceable', attribution: 'First edition' },
      generatedTsv(600, 'old'),
    );
    const replaced = await admin.put<One>(
      `admin/dictionary/${made.id}`,
      upload({ 'v2.tsv': generatedTsv(700, 'new') }),
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body.data).toEqual(
      expect.objectContaining({
        id: made.id,
        name: 'Replaceable',
        attribution: 'First edition',
        entries: 700,
      }),
    );
    expect(await rowsOf(made.id)).toEqual([{ id: made.id, generation: 2, n: 700 }]);
    expect((await headwords(made.id))[0].headword).toBe('new0');

    const lines = generatedTsv(2000, 'bad').split('\n');
    lines[1500] = 'no tab here';
    const failed = await admin.put<Refusal>(
      `admin/dictionary/${made.id}`,
      upload({ 'v3.tsv': lines.join('\n') }, { name: 'Never seen' }),
    );
    expect(failed.status).toBe(422);
    expect(failed.body.errors?.files?.[0]).toMatch(/^v3\.tsv, line 1501: /);
    expect((await list()).find((d) => d.id === made.id)).toEqual(replaced.body.data);
    expect(await rowsOf(made.id)).toEqual([{ id: made.id, generation: 2, n: 700 }]);

    expect((await admin.put(`admin/dictionary/999999`, upload({ 'a.tsv': 'a\tb\n' }))).status).toBe(404);
  });

  it('deletes a dictionary with its entries', async () => {
    const made = await tsvDictionary({ name: 'Doomed' }, generatedTsv(1200, 'doomed'));
    const res = await admin.delete(`admin/dictionary/${made.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Dictionary deleted.' });
    expect((await list()).map((d) => d.id)).not.toContain(made.id);
    expect(await rowsOf(made.id)).toEqual([]);
    expect((await dictionaryRows()).map((row) => row.id)).not.toContain(made.id);
    expect((await admin.delete(`admin/dictionary/${made.id}`)).status).toBe(404);
  });

  it('refuses a second import of the same dictionary while one is running (409)', async () => {
    const made = await tsvDictionary({ name: 'Busy' });
    // Large enough that the first replacement is still writing when the second arrives.
    const first = admin.put<One>(
      `admin/dictionary/${made.id}`,
      upload({ 'big.tsv': generatedTsv(50_000, 'w') }),
    );
    // Waits for its first rows: from then on it holds the dictionary until its answer.
    const writing = () =>
      sql<unknown[]>(
        db,
        `SELECT 1 FROM dictionary_entries WHERE dictionary_id = ? AND generation = 2 LIMIT 1`,
        [made.id],
      );
    while ((await writing()).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await admin.put<Refusal>(`admin/dictionary/${made.id}`, upload({ 'small.tsv': 'a\tb\n' }));
    expect(second.status).toBe(409);
    expect((await admin.delete<Refusal>(`admin/dictionary/${made.id}`)).status).toBe(409);
    const done = await first;
    expect(done.status).toBe(200);
    expect(done.body.data.entries).toBe(50_000);
    expect(await rowsOf(made.id)).toEqual([{ id: made.id, generation: 2, n: 50_000 }]);
  });

  it('answers administrators only', async () => {
    for (const [client, status] of [
      [visitor, 401],
      [member, 403],
    ] as const) {
      expect((await client.get('admin/dictionary')).status).toBe(status);
      expect(
        (await client.post('admin/dictionary', upload({ 'a.tsv': 'a\tb\n' }, { source: 'es', target: 'en' })))
          .status,
      ).toBe(status);
      expect((await client.put('admin/dictionary/1', upload({ 'a.tsv': 'a\tb\n' }))).status).toBe(status);
      expect((await client.delete('admin/dictionary/1')).status).toBe(status);
    }
  });

  it('removes at boot what an import cut short by a crash left', async () => {
    const storage = tempStorage();
    let own = await startServer(storage);
    try {
      const ownAdmin = (await newAdmin(own)).client;
      const made = await ownAdmin.post<One>(
        'admin/dictionary',
        upload({ 'a.tsv': 'uno\tone\ndos\ttwo\n' }, { source: 'es', target: 'en' }),
      );
      expect(made.status).toBe(201);
      const id = made.body.data.id;
      // As a crash would leave them: a replacement's rows half written, and a first import's hidden row.
      const ownDb = own.app.get(DataSource);
      const entry = `INSERT INTO dictionary_entries (dictionary_id, generation, headword, folded, definition) VALUES (?, ?, 'x', 'x', 'y')`;
      await sql(ownDb, entry, [id, 2]);
      const [hidden] = await sql<Array<{ id: number }>>(
        ownDb,
        `INSERT INTO dictionaries (name, source, target, format, generation) VALUES ('Cut short', 'es', 'en', 'tsv', 0) RETURNING id`,
      );
      await sql(ownDb, entry, [Number(hidden.id), 1]);
      await own.close(true);

      own = await startServer(storage);
      await own.app.get(DictionarySweep).settled();
      const after = own.app.get(DataSource);
      const rows = await sql<Array<{ dictionary_id: number; generation: number; n: number | string }>>(
        after,
        `SELECT dictionary_id, generation, COUNT(*) AS n FROM dictionary_entries GROUP BY dictionary_id, generation`,
      );
      expect(rows.map((row) => [Number(row.dictionary_id), Number(row.generation), Number(row.n)])).toEqual([
        [id, 1, 2],
      ]);
      const dictionaries = await sql<Array<{ id: number }>>(after, `SELECT id FROM dictionaries`);
      expect(dictionaries.map((row) => Number(row.id))).toEqual([id]);
    } finally {
      await own.close();
    }
  });
});
