import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PhrasesRepository } from '../content/catalogue/repository/phrases.repository';
import { MeasureAhead } from '../publishing/formats/measure-ahead';
import { ImportLifecycle } from '../publishing/imports/import-lifecycle';
import { StagedImport } from '../publishing/imports/staged-import.entity';
import { DataSource } from 'typeorm';
import { ApiClient, newAdmin, newMember } from './api-client';
import { controlClock, MINUTE } from './clock';
import { bookForm, mediaFiles, purgeAfterGrace, stagedImports } from './fixtures';
import { startServer, type TestServer } from './harness';
import { onPostgres } from './database';
import { makeZip, renameEntry, understateSize } from './zips';

const CLIP = readFileSync(join(__dirname, 'fixtures', 'clip.mp3'));
/** A second real clip, different from the first. */
const TEXT = readFileSync(
  join(__dirname, '..', 'seed', 'demo', 'audio', 'der-leuchtturmwarter', 'c1-p2.mp3'),
);

interface Preview {
  data: {
    import_id: string;
    format: string;
    rows: Array<{
      n: number;
      phrase: string;
      dictionary: string;
      clip: string | null;
      duration_ms: number | null;
      audio: string | null;
      error: string | null;
    }>;
    errors: string[];
  };
}
type Phrases = { data: { phrases: Array<{ phrase: string; dictionary: string; position: number }> } };

const file = (data: Buffer | string, name: string): [Blob, string] => [new Blob([data]), name];

function importForm(text: [Blob, string] | undefined, clips: Array<[Blob, string]>, mode?: string): FormData {
  const data = new FormData();
  if (text) data.set('text', text[0], text[1]);
  for (const [blob, name] of clips) data.append('clips', blob, name);
  if (mode) data.set('mode', mode);
  return data;
}

const TSV =
  'phrase\tdictionary\taudio\n' +
  'Le train part.\ttrain — train | partir — to leave\t1.mp3\n' +
  '"Il dit ""au revoir""."\t"dire — to say\nau revoir — goodbye"\t2.mp3\n' +
  'On arrive.\tarriver — to arrive\t10.mp3\n';

describe('Importing a chapter', () => {
  let server: TestServer;
  let admin: ApiClient;
  let bookCode: string;
  let chapterId: number;

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    const book = await admin.post<{ data: { id: number; book_code: string } }>('admin/book', bookForm());
    bookCode = book.body.data.book_code;
    chapterId = (
      await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: 'Le départ',
        chapter_no: 1,
        book_id: book.body.data.id,
      })
    ).body.data.id;
  });
  afterAll(() => server.close());

  async function newChapter(no: number): Promise<number> {
    const book = await admin.get<{ data: { id: number } }>(`admin/book/${bookCode}`);
    return (
      await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: `Chapitre ${no}`,
        chapter_no: no,
        book_id: book.body.data.id,
      })
    ).body.data.id;
  }
  const phrasesOf = async (id: number) =>
    (await admin.get<Phrases>(`admin/phrase?chapter_id=${id}`)).body.data.phrases;
  const stageDirs = () => stagedImports(server);

  it('stages a TSV and a zip, previews every row with its clip, and commits them in order', async () => {
    const zip = await makeZip([
      { name: 'clips/1.mp3', data: CLIP },
      { name: 'clips/2.mp3', data: CLIP },
      { name: 'clips/10.mp3', data: TEXT },
      { name: '__MACOSX/clips/._1.mp3', data: Buffer.from('junk') },
      { name: 'clips/.DS_Store', data: Buffer.from('junk') },
    ]);
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file(TSV, 'chapter.tsv'), [file(zip, 'clips.zip')]),
    );
    expect(staged.status).toBe(200);
    const { data } = staged.body;
    expect(data.format).toBe('tsv');
    expect(data.errors).toEqual([]);
    expect(
      data.rows.map(({ n, phrase, dictionary, clip, error }) => ({ n, phrase, dictionary, clip, error })),
    ).toEqual([
      {
        n: 1,
        phrase: 'Le train part.',
        dictionary: 'train — train\npartir — to leave',
        clip: '1.mp3',
        error: null,
      },
      {
        n: 2,
        phrase: 'Il dit "au revoir".',
        dictionary: 'dire — to say\nau revoir — goodbye',
        clip: '2.mp3',
        error: null,
      },
      { n: 3, phrase: 'On arrive.', dictionary: 'arriver — to arrive', clip: '10.mp3', error: null },
    ]);
    expect(data.rows.every((row) => row.duration_ms! > 0)).toBe(true);
    // Nothing is added before the commit.
    expect(await phrasesOf(chapterId)).toEqual([]);

    // The preview plays through a signed URL (no token); an altered one is refused.
    const audio = await fetch(server.baseUrl + data.rows[2].audio!);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await audio.arrayBuffer()).equals(TEXT)).toBe(true);
    // Another first character of the signature (never the same one: 'A' stays 'A' once in 64 runs).
    const altered = data.rows[2].audio!.replace(/sig=./, (s) => (s.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await fetch(server.baseUrl + altered)).status).toBe(404);
    expect((await fetch(server.baseUrl + data.rows[2].audio!.replace(/\/3\?/, '/2?'))).status).toBe(404);

    const before = (await mediaFiles(server)).length;
    const committed = await admin.post(`admin/import/${data.import_id}/commit`);
    expect(committed.status).toBe(200);
    expect(committed.body).toEqual({
      message: '3 phrases have been added to the chapter.',
      data: { added: 3, book_code: bookCode, chapter_no: 1 },
    });
    const phrases = await phrasesOf(chapterId);
    expect(phrases.map((p) => [p.position, p.phrase])).toEqual([
      [1, 'Le train part.'],
      [2, 'Il dit "au revoir".'],
      [3, 'On arrive.'],
    ]);
    expect((await mediaFiles(server)).length).toBe(before + 3);
    // The import and its files are gone; the public reader shows the phrases.
    expect((await admin.post(`admin/import/${data.import_id}/commit`)).status).toBe(404);
    expect(await stageDirs()).not.toContain(data.import_id);
    const reader = await new ApiClient(server).get<{ data: { phrases: Array<{ phrase: string }> } }>(
      `guest/book/${bookCode}/chapter/1`,
    );
    expect(reader.body.data.phrases.map((p) => p.phrase)).toEqual(phrases.map((p) => p.phrase));
  });

  it('reads plain blocks matched to many clip files by natural order, in UTF-16, and appends', async () => {
    const id = await newChapter(2);
    const blocks = 'Un.\nun — one\n\nDeux.\ndeux — two\n\nDix.\n';
    const text = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(blocks, 'utf16le')]);
    const clips = [file(TEXT, '10.mp3'), file(CLIP, '2.mp3'), file(CLIP, '1.mp3'), file('x', '._1.mp3')];
    const staged = await admin.post<Preview>(
      `admin/chapter/${id}/import`,
      importForm(file(text, 'c.txt'), clips),
    );
    expect(staged.body.data.format).toBe('blocks');
    expect(staged.body.data.rows.map((r) => [r.phrase, r.clip, r.error])).toEqual([
      ['Un.', '1.mp3', null],
      ['Deux.', '2.mp3', null],
      ['Dix.', '10.mp3', null],
    ]);
    await admin.post(`admin/import/${staged.body.data.import_id}/commit`);
    const again = await admin.post<Preview>(
      `admin/chapter/${id}/import`,
      importForm(file('Onze.\n', 'c.txt'), [file(CLIP, 'a.mp3')]),
    );
    await admin.post(`admin/import/${again.body.data.import_id}/commit`);
    expect((await phrasesOf(id)).map((p) => [p.position, p.phrase])).toEqual([
      [1, 'Un.'],
      [2, 'Deux.'],
      [3, 'Dix.'],
      [4, 'Onze.'],
    ]);
  });

  it('marks each problem on its row, and refuses to commit until they are fixed', async () => {
    const tsv =
      'phrase\tdictionary\taudio\n' +
      'Bon.\t\t1.mp3\n' +
      '\t\t2.mp3\n' +
      'Manque.\t\tmissing.mp3\n' +
      'Pas audio.\t\tnotes.mp3\n';
    const clips = [
      file(CLIP, '1.mp3'),
      file(CLIP, '2.mp3'),
      file('not audio at all', 'notes.mp3'),
      file(CLIP, 'extra.mp3'),
    ];
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file(tsv, 't.tsv'), clips),
    );
    expect(staged.status).toBe(200);
    expect(staged.body.data.rows.map((r) => r.error)).toEqual([
      null,
      'The phrase is empty.',
      'No clip named "missing.mp3" was uploaded.',
      'The clip "notes.mp3" is not usable: The audio must be an MP3, M4A/AAC, OGG or WAV file.',
    ]);
    expect(staged.body.data.errors).toContain('The clip "extra.mp3" matches no row of the text.');
    const refused = await admin.post(`admin/import/${staged.body.data.import_id}/commit`);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: 'Rows 2, 3, 4 have problems: fix the files and import again.' });

    const blocks = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file('A.\n\nB.\n\nC.\n', 'c.txt'), [file(CLIP, '1.mp3'), file(CLIP, '2.mp3')]),
    );
    expect(blocks.body.data.rows[2].error).toBe(
      'No clip for this phrase: The text has 3 phrases and the upload 2 clips.',
    );
    expect(blocks.body.data.errors).toContain('The text has 3 phrases and the upload 2 clips.');
  });

  it('refuses a NUL character in a phrase or a glossary on its row, as the forms do, in every mode', async () => {
    const tsv =
      'phrase\tdictionary\taudio\n' +
      'Bon\0jour.\t\t1.mp3\n' +
      'Bon.\tbon \0 good\t2.mp3\n' +
      'Fin.\t\t3.mp3\n';
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file(tsv, 't.tsv'), [file(CLIP, '1.mp3'), file(CLIP, '2.mp3'), file(CLIP, '3.mp3')]),
    );
    expect(staged.status).toBe(200);
    expect(staged.body.data.rows.map((r) => r.error)).toEqual([
      'The phrase contains a NUL character, which text cannot hold.',
      'The glossary contains a NUL character, which text cannot hold.',
      null,
    ]);
    const refused = await admin.post(`admin/import/${staged.body.data.import_id}/commit`);
    expect([refused.status, refused.body]).toEqual([
      422,
      { message: 'Rows 1, 2 have problems: fix the files and import again.' },
    ]);

    const blocks = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file('A.\n\nB\0.\n', 'c.txt'), [file(CLIP, '1.mp3'), file(CLIP, '2.mp3')]),
    );
    expect(blocks.body.data.rows.map((r) => r.error)).toEqual([
      null,
      'The phrase contains a NUL character, which text cannot hold.',
    ]);

    const recording = new FormData();
    recording.set('text', new Blob(['Un\0.\n']), 'c.txt');
    recording.set('recording', new Blob([CLIP]), 'chapter.mp3');
    const cut = await admin.post<Preview>(`admin/chapter/${chapterId}/import`, recording);
    expect(cut.body.data.rows.map((r) => r.error)).toEqual([
      'The phrase contains a NUL character, which text cannot hold.',
    ]);
    for (const id of [staged, blocks, cut].map((res) => res.body.data.import_id))
      await admin.delete(`admin/import/${id}`);
  });

  it('refuses a control character on its row in a phrase, a glossary or a translation, commits nothing, and keeps CRLF glossaries', async () => {
    const id = await newChapter(40);
    const clips = (n: number) => Array.from({ length: n }, (_, i) => file(CLIP, `${i + 1}.mp3`));
    // As a spreadsheet on Windows saves it: CRLF line ends, a quoted glossary of two CRLF lines.
    const header = 'phrase\tdictionary\taudio\ttranslation:en';
    const lastRow = '"Un\tdeux."\t"un — one\r\ndeux — two"\t5.mp3\tOne, two.';
    const tsv = [
      header,
      'Bon\u0001jour.\t\t1.mp3\tHello.',
      'Bon.\tbon \u001b good\t2.mp3\tGood.',
      'Fin.\t\t3.mp3\tThe\uffff end.',
      'Un\u007f.\t\t4.mp3\t',
      lastRow,
    ].join('\r\n');
    const staged = await admin.post<Preview>(
      `admin/chapter/${id}/import`,
      importForm(file(tsv, 't.tsv'), clips(5)),
    );
    expect(staged.status).toBe(200);
    expect(staged.body.data.rows.map((r) => r.error)).toEqual([
      'The phrase contains a control character (U+0001), which text cannot hold.',
      'The glossary contains a control character (U+001B), which text cannot hold.',
      'The en translation contains a noncharacter (U+FFFF), which text cannot hold.',
      'The phrase contains a control character (U+007F), which text cannot hold.',
      null,
    ]);
    const refused = await admin.post(`admin/import/${staged.body.data.import_id}/commit`);
    expect([refused.status, refused.body]).toEqual([
      422,
      { message: 'Rows 1, 2, 3, 4 have problems: fix the files and import again.' },
    ]);
    expect(await phrasesOf(id)).toEqual([]);

    const blocks = await admin.post<Preview>(
      `admin/chapter/${id}/import`,
      importForm(file('A.\r\n\r\nB\ufffe.\r\nb — b\r\n', 'c.txt'), clips(2)),
    );
    expect(blocks.body.data.rows.map((r) => r.error)).toEqual([
      null,
      'The phrase contains a noncharacter (U+FFFE), which text cannot hold.',
    ]);
    expect((await admin.post(`admin/import/${blocks.body.data.import_id}/commit`)).status).toBe(422);
    expect(await phrasesOf(id)).toEqual([]);

    // Without the bad rows, the same file commits: the tab and the glossary's lines are kept.
    const good = await admin.post<Preview>(
      `admin/chapter/${id}/import`,
      importForm(file(`${header}\r\n${lastRow}\r\n`, 't.tsv'), [file(CLIP, '5.mp3')]),
    );
    expect(good.body.data.rows.map((r) => r.error)).toEqual([null]);
    expect((await admin.post(`admin/import/${good.body.data.import_id}/commit`)).status).toBe(200);
    expect((await phrasesOf(id)).map((p) => [p.phrase, p.dictionary])).toEqual([
      ['Un\tdeux.', 'un — one\ndeux — two'],
    ]);
    for (const res of [staged, blocks]) await admin.delete(`admin/import/${res.body.data.import_id}`);
  });

  it('refuses at commit a control character staged before the rule, as staging now does, and adds nothing', async () => {
    const id = await newChapter(41);
    const staged = await admin.post<Preview>(
      `admin/chapter/${id}/import`,
      importForm(file('phrase\tdictionary\taudio\nBonjour.\t\t1.mp3\nBon.\tbon — good\t2.mp3\n', 't.tsv'), [
        file(CLIP, '1.mp3'),
        file(CLIP, '2.mp3'),
      ]),
    );
    const importId = staged.body.data.import_id;
    expect(staged.body.data.rows.map((r) => r.error)).toEqual([null, null]);
    // What a version without the rule staged (imports last 24 hours): the characters, and no problem named.
    const imports = server.app.get(DataSource).getRepository(StagedImport);
    const manifest = JSON.parse((await imports.findOneByOrFail({ id: importId })).manifest) as {
      rows: Array<{ phrase: string; dictionary: string }>;
    };
    manifest.rows[0].phrase = 'Bon\u0001jour.';
    manifest.rows[1].dictionary = 'bon \u001b good';
    await imports.update({ id: importId }, { manifest: JSON.stringify(manifest) });
    const refused = await admin.post(`admin/import/${importId}/commit`);
    expect([refused.status, refused.body]).toEqual([
      422,
      { message: 'Rows 1, 2 have problems: fix the files and import again.' },
    ]);
    expect(await phrasesOf(id)).toEqual([]);
    const preview = await admin.get<Preview>(`admin/import/${importId}`);
    expect(preview.body.data.rows.map((r) => r.error)).toEqual([
      'The phrase contains a control character (U+0001), which text cannot hold.',
      'The glossary contains a control character (U+001B), which text cannot hold.',
    ]);
    await admin.delete(`admin/import/${importId}`);
  });

  it('refuses whole files that are not what they claim, with a message', async () => {
    const before = await stageDirs();
    const post = (text: [Blob, string] | undefined, clips: Array<[Blob, string]>) =>
      admin.post<{ message: string; errors?: Record<string, string[]> }>(
        `admin/chapter/${chapterId}/import`,
        importForm(text, clips),
      );
    const notZip = await post(file(TSV, 't.tsv'), [file('this is no zip', 'clips.zip')]);
    expect([notZip.status, notZip.body.errors?.clips]).toEqual([
      422,
      ['The clips file is not a zip archive that can be read.'],
    ]);
    const latin1 = await post(file(Buffer.from([0x70, 0x68, 0xe9, 0x0a, 0xff, 0xfe, 0x41]), 't.txt'), []);
    expect([latin1.status, latin1.body.errors?.text]).toEqual([
      422,
      ['The text file is not UTF-8 or UTF-16 text.'],
    ]);
    const noText = await post(undefined, [file(CLIP, '1.mp3')]);
    expect([noText.status, noText.body.errors?.text]).toEqual([
      422,
      ['Choose the text file of the chapter.'],
    ]);
    const twice = await post(file(TSV, 't.tsv'), [file(CLIP, '1.mp3'), file(CLIP, '1.MP3')]);
    expect(twice.body.errors?.clips).toEqual(['Two clips are named "1.MP3": give each clip its own name.']);
    expect((await admin.post(`admin/chapter/999999/import`, importForm(file(TSV, 't.tsv'), []))).status).toBe(
      404,
    );
    const member = (await newMember(server)).client;
    expect(
      (await member.post(`admin/chapter/${chapterId}/import`, importForm(file(TSV, 't.tsv'), []))).status,
    ).toBe(403);
    // Nothing is left behind by a refused import.
    expect(await stageDirs()).toEqual(before);
  });

  // Refused while reading the archive, before any row or object: the same on either engine, and long
  // (scripts/intended-skips.json).
  (onPostgres ? it.skip : it)('refuses zip bombs and unsafe paths, leaving nothing behind', async () => {
    const before = await stageDirs();
    const post = async (zip: Buffer) =>
      admin.post<{ message: string; errors?: Record<string, string[]> }>(
        `admin/chapter/${chapterId}/import`,
        importForm(file(TSV, 't.tsv'), [file(zip, 'clips.zip')]),
      );
    const many = await post(
      await makeZip(Array.from({ length: 2001 }, (_, i) => ({ name: `${i}.mp3`, data: Buffer.from('x') }))),
    );
    expect([many.status, many.body.message]).toEqual([413, 'The zip holds 2001 entries; the most is 2000.']);
    const ratio = await post(await makeZip([{ name: 'big.mp3', data: Buffer.alloc(11 * 1024 * 1024) }]));
    expect(ratio.status).toBe(413);
    expect(ratio.body.message).toMatch(/expands more than 100 times: the zip is refused as a zip bomb/);
    const liar = await post(understateSize(await makeZip([{ name: '1.mp3', data: CLIP, store: true }]), 100));
    expect([liar.status, liar.body.message]).toEqual([413, '"1.mp3" is larger than the zip declares.']);
    for (const [from, to] of [
      ['aa/1.mp3', '../1.mp3'],
      ['x1.mp3', '/1.mp3'],
    ]) {
      const evil = await post(renameEntry(await makeZip([{ name: from, data: CLIP }]), from, to));
      expect([to, evil.status]).toEqual([to, 422]);
      expect(evil.body.errors?.clips?.[0]).toMatch(/unsafe path/);
    }
    expect(await stageDirs()).toEqual(before);
    // Clips imported by earlier tests are measured in the background (docs/formats.md "Measured ahead"),
    // which on S3 holds a local copy in tmp/ for a moment: wait for it before looking.
    await server.app.get(MeasureAhead).idle();
    expect(readdirSync(join(server.storageDir, 'tmp'))).toEqual([]);
    expect(existsSync(join(server.storageDir, '1.mp3'))).toBe(false);
  });

  it('commits once when two commits arrive together, and discards on request', async () => {
    const id = await newChapter(3);
    const stage = async () =>
      (
        await admin.post<Preview>(
          `admin/chapter/${id}/import`,
          importForm(file('A.\n\nB.\n', 'c.txt'), [file(CLIP, '1.mp3'), file(CLIP, '2.mp3')]),
        )
      ).body.data.import_id;
    const first = await stage();
    const [one, two] = await Promise.all([
      admin.post(`admin/import/${first}/commit`),
      admin.post(`admin/import/${first}/commit`),
    ]);
    // One adds the rows; the other finds the import taken (409) or, if it comes after, gone (404).
    const statuses = [one.status, two.status].sort();
    expect(statuses[0]).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    expect((await phrasesOf(id)).length).toBe(2);

    const second = await stage();
    expect(await stageDirs()).toContain(second);
    expect((await admin.delete(`admin/import/${second}`)).body).toEqual({
      message: 'The import has been discarded.',
    });
    expect(await stageDirs()).not.toContain(second);
    expect((await admin.post(`admin/import/${second}/commit`)).status).toBe(404);
    expect((await admin.delete(`admin/import/${second}`)).status).toBe(404);
    expect((await phrasesOf(id)).length).toBe(2);
  });

  it('replaces the chapter in replace mode, and a failure halfway leaves the chapter as it was', async () => {
    const id = await newChapter(4);
    const stage = async (text: string, mode?: string) =>
      (
        await admin.post<Preview>(
          `admin/chapter/${id}/import`,
          importForm(
            file(text, 'c.txt'),
            text.split('\n\n').map((_, i) => file(CLIP, `${i + 1}.mp3`)),
            mode,
          ),
        )
      ).body.data.import_id;
    await admin.post(`admin/import/${await stage('A.\n\nB.')}/commit`);
    const replacing = await stage('X.\n\nY.\n\nZ.', 'replace');

    // The old phrases are deleted by then: the insert failing must bring them back.
    const spy = jest.spyOn(
      server.app.get<PhrasesRepository, { insertBatch: () => Promise<unknown> }>(PhrasesRepository),
      'insertBatch',
    );
    spy.mockRejectedValue(new Error('disk on fire'));
    const media = await mediaFiles(server);
    try {
      expect((await admin.post(`admin/import/${replacing}/commit`)).status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect((await phrasesOf(id)).map((p) => p.phrase)).toEqual(['A.', 'B.']);
    expect(await mediaFiles(server)).toEqual(media);
    // The import is staged again, and commits now.
    expect((await admin.post(`admin/import/${replacing}/commit`)).status).toBe(200);
    expect((await phrasesOf(id)).map((p) => [p.position, p.phrase])).toEqual([
      [1, 'X.'],
      [2, 'Y.'],
      [3, 'Z.'],
    ]);
    // The replaced clips stay for the grace period, then go.
    expect((await mediaFiles(server)).length).toBe(media.length + 3);
    await purgeAfterGrace(server);
    expect((await mediaFiles(server)).length).toBe(media.length + 1);
  });

  it('takes the text with 2,000 clip files, and refuses 2,001', async () => {
    const clips = (count: number) => Array.from({ length: count }, (_, i) => file('x', `${i + 1}.mp3`));
    const most = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file('A.\n', 'c.txt'), clips(2000)),
    );
    expect(most.status).toBe(200);
    expect(most.body.data.errors).toContain('The text has 1 phrase and the upload 2000 clips.');
    await admin.delete(`admin/import/${most.body.data.import_id}`);
    const over = await admin.post(
      `admin/chapter/${chapterId}/import`,
      importForm(file('A.\n', 'c.txt'), clips(2001)),
    );
    expect([413, 422]).toContain(over.status);
  }, 180_000); // 4,001 files through multipart: minutes on a loaded 2-core machine

  it('takes over a commit left unfinished for 30 minutes (docs/import.md), and not sooner', async () => {
    const id = await newChapter(5);
    const staged = await admin.post<Preview>(
      `admin/chapter/${id}/import`,
      importForm(file('Seul.\n', 'c.txt'), [file(CLIP, '1.mp3')]),
    );
    const importId = staged.body.data.import_id;
    const clock = controlClock(server);
    try {
      // A commit whose process died just now, before it added anything.
      await server.app
        .get(DataSource)
        .getRepository(StagedImport)
        .update({ id: importId }, { status: 'committing', updatedAt: new Date(Date.now()) });
      clock.advance(29 * MINUTE);
      const early = await admin.post(`admin/import/${importId}/commit`);
      expect([early.status, early.body]).toEqual([
        409,
        { message: 'This import is already being committed.' },
      ]);
      clock.advance(2 * MINUTE);
      const late = await admin.post(`admin/import/${importId}/commit`);
      expect([late.status, late.body]).toEqual([
        200,
        {
          message: '1 phrase has been added to the chapter.',
          data: { added: 1, book_code: bookCode, chapter_no: 5 },
        },
      ]);
      expect((await phrasesOf(id)).map((p) => p.phrase)).toEqual(['Seul.']);
    } finally {
      clock.restore();
    }
  });

  it('answers a damaged manifest with a clear 409 on preview, boundaries, clips and commit, never a 500', async () => {
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file('A.\n', 'c.txt'), [file(CLIP, '1.mp3')]),
    );
    const { import_id: id, rows } = staged.body.data;
    const phrases = (await phrasesOf(chapterId)).length;
    const imports = server.app.get(DataSource).getRepository(StagedImport);
    const good = (await imports.findOneByOrFail({ id })).manifest;
    const damaged = { status: 409, body: { message: "This import's data is damaged: stage it again." } };
    const answers = async () => {
      const preview = await admin.get(`admin/import/${id}`);
      const boundaries = await admin.put(`admin/import/${id}/boundaries`, { cuts: [] });
      const clip = await fetch(server.baseUrl + rows[0].audio!);
      const commit = await admin.post(`admin/import/${id}/commit`);
      return [preview, boundaries, { status: clip.status, body: await clip.json() }, commit].map(
        ({ status, body }) => ({ status, body }),
      );
    };
    try {
      // Not JSON, then JSON of the wrong shape (a row's clip outside the import's folder).
      for (const manifest of [
        good.slice(0, -10),
        good.replace('"file":"1.clip"', '"file":"../../media/x.mp3"'),
      ]) {
        await imports.update({ id }, { manifest });
        expect(await answers()).toEqual([damaged, damaged, damaged, damaged]);
      }
      // The refused commit did not take it: still staged, and nothing was added.
      expect((await imports.findOneByOrFail({ id })).status).toBe('staged');
      expect(await phrasesOf(chapterId)).toHaveLength(phrases);
    } finally {
      expect((await admin.delete(`admin/import/${id}`)).status).toBe(200);
    }
  });

  it('never sweeps the files of an import being committed', async () => {
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file('A.\n', 'c.txt'), [file(CLIP, '1.mp3')]),
    );
    const id = staged.body.data.import_id;
    const db = server.app.get(DataSource);
    const clock = controlClock(server);
    try {
      clock.advance(25 * 3_600_000);
      // A commit taken a moment ago, of an import staged 25 hours ago.
      await db
        .getRepository(StagedImport)
        .update({ id }, { status: 'committing', updatedAt: new Date(Date.now() + 25 * 3_600_000) });
      await server.app.get(ImportLifecycle).sweep();
      expect(await stageDirs()).toContain(id);
    } finally {
      clock.restore();
      await db.getRepository(StagedImport).update({ id }, { status: 'staged' });
      await admin.delete(`admin/import/${id}`);
    }
  });

  it('sweeps an import after 24 hours with its files, and never before', async () => {
    const staged = await admin.post<Preview>(
      `admin/chapter/${chapterId}/import`,
      importForm(file('A.\n', 'c.txt'), [file(CLIP, '1.mp3')]),
    );
    const id = staged.body.data.import_id;
    const imports = server.app.get(ImportLifecycle);
    const clock = controlClock(server);
    try {
      clock.advance(23 * 3_600_000);
      await imports.sweep();
      expect(await stageDirs()).toContain(id);
      expect((await admin.get(`admin/import/${id}`)).status).toBe(200);
      clock.advance(2 * 3_600_000);
      await imports.sweep();
      expect(await stageDirs()).not.toContain(id);
      expect((await admin.get(`admin/import/${id}`)).status).toBe(404);
    } finally {
      clock.restore();
    }
  });
});
