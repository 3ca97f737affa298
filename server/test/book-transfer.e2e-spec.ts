import { Chapter } from '../content/catalogue/entities/chapter.entity';
import { MeasureAhead } from '../publishing/formats/measure-ahead';
import { Phrase } from '../content/catalogue/entities/phrase.entity';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PhrasesRepository } from '../content/catalogue/repository/phrases.repository';
import type { BookImportResponse } from '../publishing/imports/book-imports.dto';
import { StagedImport } from '../publishing/imports/staged-import.entity';
import { ApiClient, newAdmin, newMember } from './api-client';
import { controlClock, MINUTE } from './clock';
import {
  bookForm,
  form,
  loseMedia,
  mediaBytes,
  mediaExists,
  mediaFiles,
  stagedImports,
  tempFiles,
} from './fixtures';
import { startServer, type TestServer } from './harness';
import { makeZip, unzip } from './zips';

const DEMO = join(__dirname, '..', 'seed', 'demo', 'audio', 'der-leuchtturmwarter');
const CLIPS = ['c1-p1.mp3', 'c1-p2.mp3', 'c1-p3.mp3', 'c1-p4.mp3', 'c2-p1.mp3'].map((name) =>
  readFileSync(join(DEMO, name)),
);

/** Texts a TSV must quote: quotes, tabs, line breaks, and scripts beyond ASCII. */
const CHAPTERS = [
  {
    title: 'Le départ « à l’aube »',
    chapter_no: 2,
    phrases: [
      { phrase: 'Il dit « bonjour » et "au revoir".', dictionary: 'dire — to say\nau revoir — goodbye' },
      { phrase: 'Deux\tcolonnes, une tabulation.', dictionary: 'colonne\tcolumn\ntabulation — tab' },
      { phrase: 'Ça coûte 5 €, n’est-ce pas ?', dictionary: 'coûter — to cost' },
    ],
  },
  {
    title: 'Глава "два"',
    chapter_no: 5,
    phrases: [
      // A form sends line breaks as CRLF, and a phrase keeps them as sent.
      { phrase: 'Первая строка,\r\nвторая строка.', dictionary: 'строка — line\nпервая: first' },
      { phrase: '日本語の「フレーズ」。', dictionary: 'フレーズ — phrase' },
    ],
  },
];

const BOOK = {
  title: 'L’été de « Zoë »',
  author: 'Anaïs Ł. Müller',
  narrated_by: 'Jörg "JJ" Ødegaard',
  hours: 3,
  minutes: 7,
  description: 'Un été à Brest.\n\nSecond paragraph, with "quotes".',
  difficulty: 'Medium',
  sample_text: 'Première ligne.\nZweite Zeile.',
  language: 'fr',
  cefr: 'B1',
};

type Book = typeof BOOK & {
  id: number;
  book_code: string;
  image_path: string;
  sample_audio: string;
  typed_hours: number;
  typed_minutes: number;
};
type Phrases = { data: { phrases: Array<{ position: number; phrase: string; dictionary: string }> } };
type Chapters = { data: { chapters: Array<{ id: number; title: string; chapter_no: number }> } };
type Preview = { data: BookImportResponse };

const zipForm = (zip: Buffer, name = 'book.zip') => {
  const data = new FormData();
  data.set('zip', new Blob([zip]), name);
  return data;
};

/** A book's clip paths in reading order (one chapter's, with `chapterNo`), through the query builder. */
function clipPathsOf(db: DataSource, bookId: number, chapterNo?: number): Promise<Array<{ path: string }>> {
  const query = db
    .getRepository(Phrase)
    .createQueryBuilder('p')
    .innerJoin(Chapter, 'c', 'c.id = p.chapterId')
    .select('p.audioPath', 'path')
    .where('c.bookId = :bookId', { bookId });
  if (chapterNo !== undefined) query.andWhere('c.chapterNo = :chapterNo', { chapterNo });
  return query.orderBy('c.chapterNo', 'ASC').addOrderBy('p.position', 'ASC').getRawMany();
}

describe('Moving a whole book', () => {
  let server: TestServer;
  const clipPaths = (bookId: number, chapterNo?: number) =>
    clipPathsOf(server.app.get(DataSource), bookId, chapterNo);
  let admin: ApiClient;
  let original: Book;
  let exported: Buffer;

  const media = (url: string) => mediaBytes(server, url);
  const bookOf = async (code: string) => (await admin.get<{ data: Book }>(`admin/book/${code}`)).body.data;
  const stageDirs = () => stagedImports(server);
  const bookCount = async () =>
    Number(
      (
        await server.app
          .get(DataSource)
          .query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM books')
      )[0].n,
    );

  /** The book as an administrator sees it: fields, chapters, phrases in order, and the clips' bytes. */
  const TYPED: Record<string, string> = { hours: 'typed_hours', minutes: 'typed_minutes' };
  async function contents(code: string) {
    const book = await bookOf(code);
    const chapters = (await admin.get<Chapters>(`admin/chapter?book_id=${book.id}`)).body.data.chapters;
    const phrases: Phrases['data']['phrases'][] = [];
    for (const chapter of chapters)
      phrases.push((await admin.get<Phrases>(`admin/phrase?chapter_id=${chapter.id}`)).body.data.phrases);
    const paths = await clipPaths(book.id);
    return {
      // The length as typed: a book with clips shows the clips' (typed_* keep what book.json said).
      fields: Object.fromEntries(
        Object.keys(BOOK).map((key) => [key, book[(TYPED[key] ?? key) as keyof Book]]),
      ),
      chapters: chapters.map((chapter, i) => ({
        title: chapter.title,
        chapter_no: chapter.chapter_no,
        phrases: phrases[i].map(({ position, phrase, dictionary }) => ({ position, phrase, dictionary })),
      })),
      clips: await Promise.all(paths.map(({ path }) => mediaBytes(server, path))),
      sample: await media(book.sample_audio),
    };
  }

  async function stage(zip: Buffer) {
    const res = await admin.post<Preview>('admin/book/import', zipForm(zip));
    expect(res.status).toBe(200);
    return res.body.data;
  }

  beforeAll(async () => {
    server = await startServer();
    // tempFiles() waits for clips to be measured (a local copy on S3): measure soon, not 5 s later.
    server.app.get(MeasureAhead).delayMs = 100;
    admin = (await newAdmin(server)).client;
    const created = await admin.post<{ data: Book }>(
      'admin/book',
      bookForm({
        ...Object.fromEntries(Object.entries(BOOK).map(([key, value]) => [key, String(value)])),
        sample_audio: [new Blob([CLIPS[4]]), 'sample.mp3'],
      }),
    );
    expect(created.status).toBe(200);
    original = created.body.data;
    let clip = 0;
    for (const chapter of CHAPTERS) {
      const made = await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: chapter.title,
        chapter_no: chapter.chapter_no,
        book_id: original.id,
      });
      for (const phrase of chapter.phrases) {
        const res = await admin.post(
          'admin/phrase',
          form({
            chapter_id: made.body.data.id,
            ...phrase,
            line_audio: [new Blob([CLIPS[clip++ % 4]]), 'line.mp3'],
          }),
        );
        expect(res.status).toBe(200);
      }
    }
  });
  afterAll(() => server.close());

  it('exports a zip with book.json, the cover, the sample and each chapter', async () => {
    const res = await admin.raw(`admin/book/${original.book_code}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${original.book_code}.zip"`);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    exported = Buffer.from(await res.arrayBuffer());
    const items = await unzip(exported);
    expect(items.map((item) => item.name)).toEqual([
      'book.json',
      'cover.webp',
      'sample.mp3',
      'chapters/002/chapter.json',
      'chapters/002/phrases.tsv',
      'chapters/002/001.mp3',
      'chapters/002/002.mp3',
      'chapters/002/003.mp3',
      'chapters/005/chapter.json',
      'chapters/005/phrases.tsv',
      'chapters/005/001.mp3',
      'chapters/005/002.mp3',
    ]);
    const file = (name: string) => items.find((item) => item.name === name)!.data;
    expect(JSON.parse(file('book.json').toString())).toEqual({
      format: 'lingonovel-book',
      version: 2,
      book_code: original.book_code,
      ...BOOK,
    });
    expect(JSON.parse(file('chapters/005/chapter.json').toString())).toEqual({
      title: 'Глава "два"',
      number: 5,
    });
    expect(file('chapters/005/phrases.tsv').toString()).toBe(
      'phrase\tdictionary\taudio\n' +
        '"Первая строка,\r\nвторая строка."\t"строка — line\nпервая: first"\t001.mp3\n' +
        '日本語の「フレーズ」。\tフレーズ — phrase\t002.mp3\n',
    );
    expect(file('sample.mp3').equals(CLIPS[4])).toBe(true);
    expect(file('chapters/002/003.mp3').equals(CLIPS[2])).toBe(true);
    expect(file('cover.webp').subarray(8, 12).toString()).toBe('WEBP');

    const member = (await newMember(server)).client;
    expect((await member.get(`admin/book/${original.book_code}/export`)).status).toBe(403);
    expect((await admin.get('admin/book/no-such-book/export')).status).toBe(404);
  });

  it('imports the export as the same book, under a new code while the original exists', async () => {
    const preview = await stage(exported);
    expect(preview).toEqual({
      import_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'book',
      book: {
        book_code: original.book_code,
        ...BOOK,
        book_image: 'cover.webp',
        sample_audio: 'sample.mp3',
        sample_duration_ms: expect.any(Number),
        errors: {},
      },
      chapters: [
        {
          folder: 'chapters/002',
          chapter_no: 2,
          title: 'Le départ « à l’aube »',
          rows: 3,
          duration_ms: expect.any(Number),
          errors: [],
        },
        {
          folder: 'chapters/005',
          chapter_no: 5,
          title: 'Глава "два"',
          rows: 2,
          duration_ms: expect.any(Number),
          errors: [],
        },
      ],
      errors: [],
      expires_at: expect.any(String),
    });
    expect((await admin.get<Preview>(`admin/import/${preview.import_id}`)).body.data).toEqual(preview);
    const books = await bookCount();
    const committed = await admin.post(`admin/import/${preview.import_id}/commit`);
    expect(committed.status).toBe(200);
    expect(committed.body).toEqual({
      message: 'The book "L’été de « Zoë »" has been imported.',
      data: { book_code: `${original.book_code}-2` },
    });
    expect(await bookCount()).toBe(books + 1);
    const copy = await contents(`${original.book_code}-2`);
    expect(copy).toEqual(await contents(original.book_code));
    expect(copy.chapters.map((c) => c.phrases.length)).toEqual([3, 2]);
    expect(copy.chapters[1].phrases[0].phrase).toBe('Первая строка,\r\nвторая строка.');
    expect(copy.clips.map((clip) => CLIPS.findIndex((c) => c.equals(clip)))).toEqual([0, 1, 2, 3, 0]);
    expect(copy.sample.equals(CLIPS[4])).toBe(true);
    // The cover is re-encoded in every size, as any uploaded cover.
    const imported = await bookOf(`${original.book_code}-2`);
    expect(imported.image_path).not.toBe(original.image_path);
    for (const width of [320, 640, 960])
      expect(await mediaExists(server, imported.image_path.replace('-640', `-${width}`))).toBe(true);
    expect(await stageDirs()).not.toContain(preview.import_id);
    // The public catalogue shows it at once.
    const guest = await new ApiClient(server).get(`guest/book-detail/${original.book_code}-2`);
    expect(guest.status).toBe(200);
    // And its search finds it by the words of its title, accents folded, as a book made by hand.
    const found = await new ApiClient(server).get<{ data: Array<{ book_code: string }> }>(
      'guest/books?q=ete%20zoe',
    );
    expect(found.body.data.map((book) => book.book_code)).toContain(`${original.book_code}-2`);
  });

  it('downloads through a short-lived signed link without the token; an altered or expired one is refused', async () => {
    const link = await admin.post<{ data: { url: string; expires_at: string } }>(
      `admin/book/${original.book_code}/export-link`,
    );
    expect(link.status).toBe(200);
    const { url, expires_at } = link.body.data;
    expect(url).toMatch(new RegExp(`^/api/v1/book-export/${original.book_code}\\?exp=\\d+&sig=[\\w-]+$`));
    expect(new Date(expires_at).getTime() - Date.now()).toBeGreaterThan(4 * MINUTE);
    expect(new Date(expires_at).getTime() - Date.now()).toBeLessThanOrEqual(5 * MINUTE);
    const res = await fetch(server.baseUrl + url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${original.book_code}.zip"`);
    const items = await unzip(Buffer.from(await res.arrayBuffer()));
    const before = await unzip(exported);
    expect(items.map((item) => [item.name, item.data.toString('base64')])).toEqual(
      before.map((item) => [item.name, item.data.toString('base64')]),
    );

    const refused = { message: 'This download link has expired or is not valid. Ask for a new one.' };
    const altered = url.replace(/sig=./, (s) => (s.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect([(await fetch(server.baseUrl + altered)).status]).toEqual([403]);
    const other = url.replace(`/book-export/${original.book_code}?`, `/book-export/${original.book_code}-2?`);
    const otherRes = await fetch(server.baseUrl + other);
    expect([otherRes.status, await otherRes.json()]).toEqual([403, refused]);
    expect(
      (await fetch(server.baseUrl + url.replace(/exp=\d+/, (e) => `exp=${Number(e.slice(4)) + 1}`))).status,
    ).toBe(403);
    expect((await fetch(`${server.baseUrl}/api/v1/book-export/${original.book_code}`)).status).toBe(403);
    const clock = controlClock(server);
    try {
      clock.advance(5 * MINUTE + 1000);
      expect((await fetch(server.baseUrl + url)).status).toBe(403);
    } finally {
      clock.restore();
    }

    const member = (await newMember(server)).client;
    expect((await member.post(`admin/book/${original.book_code}/export-link`)).status).toBe(403);
    expect((await new ApiClient(server).post(`admin/book/${original.book_code}/export-link`)).status).toBe(
      401,
    );
    expect((await admin.post('admin/book/no-such-book/export-link')).status).toBe(404);
  });

  it('lists every problem in the preview and refuses the commit until they are fixed', async () => {
    const items = await unzip(exported);
    const edit = (changes: Record<string, Buffer | null>) =>
      makeZip(
        items
          .filter((item) => changes[item.name] !== null)
          .map((item) => ({ name: item.name, data: changes[item.name] ?? item.data })),
      );
    const bookJson = JSON.parse(items[0].data.toString()) as Record<string, unknown>;
    const books = await bookCount();

    const broken = await stage(
      await edit({
        'book.json': Buffer.from(
          JSON.stringify({ ...bookJson, title: '  ', hours: 'many', difficulty: 'Hardest' }),
        ),
        'chapters/002/002.mp3': null,
        'chapters/005/001.mp3': Buffer.from('this is not audio'),
        'chapters/005/chapter.json': Buffer.from(JSON.stringify({ title: 'Encore', number: 2 })),
      }),
    );
    expect(broken.book.errors).toEqual({
      title: ['The title field is required.'],
      hours: ['The hours must be a whole number.'],
      difficulty: ['The difficulty must be Easy, Medium or Hard.'],
    });
    expect(broken.chapters.map((chapter) => chapter.errors)).toEqual([
      [
        'Chapter number 2 is also the number of chapters/005.',
        'Row 2: No clip named "002.mp3" was uploaded.',
      ],
      [
        'Chapter number 2 is also the number of chapters/002.',
        'Row 1: The clip "001.mp3" is not usable: The audio must be an MP3, M4A/AAC, OGG or WAV file.',
      ],
    ]);
    expect(broken.errors).toEqual([
      'The title field is required.',
      'The hours must be a whole number.',
      'The difficulty must be Easy, Medium or Hard.',
      'chapters/002: Chapter number 2 is also the number of chapters/005.',
      'chapters/002: Row 2: No clip named "002.mp3" was uploaded.',
      'chapters/005: Chapter number 2 is also the number of chapters/002.',
      'chapters/005: Row 1: The clip "001.mp3" is not usable: The audio must be an MP3, M4A/AAC, OGG or WAV file.',
    ]);
    const refused = await admin.post(`admin/import/${broken.import_id}/commit`);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message:
        'The book has 7 problems: The title field is required. The hours must be a whole number. The difficulty must be Easy, Medium or Hard. … Fix the zip and import it again.',
    });

    const unreadable = await stage(
      await edit({
        'book.json': Buffer.from('{ "title": "no end'),
        'cover.webp': Buffer.from('not an image'),
      }),
    );
    expect(unreadable.book.errors).toEqual({ book_image: ['The cover must be a JPEG, PNG or WebP image.'] });
    expect(unreadable.errors).toEqual([
      'The cover must be a JPEG, PNG or WebP image.',
      'book.json is not valid JSON.',
    ]);
    expect((await admin.post(`admin/import/${unreadable.import_id}/commit`)).status).toBe(422);

    const stray = await stage(await edit({ 'sample.mp3': null, 'chapters/005/phrases.tsv': null }));
    expect(stray.errors).toEqual([
      'The zip holds no sample: add sample.mp3 (or .m4a, .ogg, .wav) next to book.json.',
      'chapters/005: The chapter has no phrases.tsv.',
    ]);
    expect(await bookCount()).toBe(books);

    const notBook = await admin.post<{ errors: Record<string, string[]> }>(
      'admin/book/import',
      zipForm(await makeZip([{ name: 'phrases.tsv', data: Buffer.from('phrase\n') }])),
    );
    expect([notBook.status, notBook.body.errors]).toEqual([
      422,
      { zip: ['The zip holds no book.json: it is not the export of a book.'] },
    ]);
    const notZip = await admin.post<{ errors: Record<string, string[]> }>(
      'admin/book/import',
      zipForm(Buffer.from('no zip at all')),
    );
    expect([notZip.status, notZip.body.errors]).toEqual([
      422,
      { zip: ['The file is not a zip archive that can be read.'] },
    ]);
    const none = await admin.post<{ errors: Record<string, string[]> }>('admin/book/import', new FormData());
    expect([none.status, none.body.errors]).toEqual([422, { zip: ['Choose the zip of the book.'] }]);
    const member = (await newMember(server)).client;
    expect((await member.post('admin/book/import', zipForm(exported))).status).toBe(403);
    for (const id of [broken.import_id, unreadable.import_id, stray.import_id])
      await admin.delete(`admin/import/${id}`);
  });

  it('refuses a NUL character in book.json, a chapter.json or a phrase, where it is, as the forms do', async () => {
    const items = await unzip(exported);
    const file = (name: string) => items.find((item) => item.name === name)!.data;
    const bookJson = JSON.parse(file('book.json').toString()) as Record<string, unknown>;
    const changes: Record<string, Buffer> = {
      'book.json': Buffer.from(JSON.stringify({ ...bookJson, author: 'Anne\u0000Autrice' })),
      'chapters/002/chapter.json': Buffer.from(JSON.stringify({ title: 'Un\u0000', number: 2 })),
      'chapters/005/phrases.tsv': Buffer.from(
        file('chapters/005/phrases.tsv').toString().replace('日本語', '日本\0語'),
      ),
    };
    const books = await bookCount();
    const preview = await stage(
      await makeZip(items.map((item) => ({ name: item.name, data: changes[item.name] ?? item.data }))),
    );
    expect(preview.book.errors).toEqual({
      author: ['The author field contains a NUL character, which text cannot hold.'],
    });
    expect(preview.errors).toEqual([
      'The author field contains a NUL character, which text cannot hold.',
      'chapters/002: chapter.json: The title field contains a NUL character, which text cannot hold.',
      'chapters/005: Row 2: The phrase contains a NUL character, which text cannot hold.',
    ]);
    const refused = await admin.post(`admin/import/${preview.import_id}/commit`);
    expect(refused.status).toBe(422);
    expect(await bookCount()).toBe(books);
    await admin.delete(`admin/import/${preview.import_id}`);
  });

  it('refuses a control character or half a surrogate pair in book.json, a chapter.json or a phrase, where it is', async () => {
    const items = await unzip(exported);
    const file = (name: string) => items.find((item) => item.name === name)!.data;
    const bookJson = JSON.parse(file('book.json').toString()) as Record<string, unknown>;
    const changes: Record<string, Buffer> = {
      // JSON.stringify writes the lone surrogate as the escape \ud800, as a hostile zip would.
      'book.json': Buffer.from(
        JSON.stringify({
          ...bookJson,
          title: 'Le\u001b[31m titre',
          narrated_by: 'Marc\ud800',
          description: 'Une\r\nhistoire\uffff.',
        }),
      ),
      'chapters/002/chapter.json': Buffer.from(JSON.stringify({ title: '\u007fDeux', number: 2 })),
      'chapters/005/phrases.tsv': Buffer.from(
        file('chapters/005/phrases.tsv').toString().replace('日本語', '日本\u0001語'),
      ),
    };
    const books = await bookCount();
    const preview = await stage(
      await makeZip(items.map((item) => ({ name: item.name, data: changes[item.name] ?? item.data }))),
    );
    const book = {
      title: 'The title field contains a control character (U+001B), which text cannot hold.',
      narrated_by: 'The narrated by field contains text that is not valid Unicode.',
      description: 'The description field contains a noncharacter (U+FFFF), which text cannot hold.',
    };
    expect(preview.book.errors).toEqual(Object.fromEntries(Object.entries(book).map(([k, v]) => [k, [v]])));
    expect([...preview.errors].sort()).toEqual(
      [
        ...Object.values(book),
        'chapters/002: chapter.json: The title field contains a control character (U+007F), which text cannot hold.',
        'chapters/005: Row 2: The phrase contains a control character (U+0001), which text cannot hold.',
      ].sort(),
    );
    const refused = await admin.post(`admin/import/${preview.import_id}/commit`);
    expect(refused.status).toBe(422);
    expect(await bookCount()).toBe(books);
    await admin.delete(`admin/import/${preview.import_id}`);
  });

  it('reads a book zipped inside a folder, and names files that belong nowhere', async () => {
    const items = await unzip(exported);
    const preview = await stage(
      await makeZip([
        ...items.map((item) => ({ name: `Mon livre/${item.name}`, data: item.data })),
        { name: 'Mon livre/notes.txt', data: Buffer.from('hello') },
        { name: '__MACOSX/Mon livre/._book.json', data: Buffer.from('junk') },
      ]),
    );
    expect(preview.chapters.map((c) => [c.folder, c.rows])).toEqual([
      ['chapters/002', 3],
      ['chapters/005', 2],
    ]);
    expect(preview.errors).toEqual([
      '"notes.txt" belongs to no chapter: a chapter\'s files go in a folder with its chapter.json.',
    ]);
    await admin.delete(`admin/import/${preview.import_id}`);
  });

  it('commits once when two commits arrive together; a failure halfway or a discard leaves nothing', async () => {
    const books = await bookCount();
    const files = await mediaFiles(server);

    const failing = await stage(exported);
    // The second chapter's phrases fail, after the book, both chapters and the first one's phrases.
    type Inserting = { insertBatch: (...a: unknown[]) => Promise<unknown> };
    const repository = server.app.get<PhrasesRepository, Inserting>(PhrasesRepository);
    let calls = 0;
    const spy = jest.spyOn(repository, 'insertBatch');
    spy.mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (++calls === 2) throw new Error('disk on fire');
      return (PhrasesRepository.prototype as unknown as Inserting).insertBatch.apply(this, args);
    });
    try {
      expect((await admin.post(`admin/import/${failing.import_id}/commit`)).status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(await bookCount()).toBe(books);
    expect(await mediaFiles(server)).toEqual(files);
    expect((await admin.get(`admin/import/${failing.import_id}`)).status).toBe(200);

    const [one, two] = await Promise.all([
      admin.post(`admin/import/${failing.import_id}/commit`),
      admin.post(`admin/import/${failing.import_id}/commit`),
    ]);
    const statuses = [one.status, two.status].sort();
    expect(statuses[0]).toBe(200);
    expect([404, 409]).toContain(statuses[1]);
    expect(await bookCount()).toBe(books + 1);
    // Cover (3 sizes), sample and 5 clips.
    expect((await mediaFiles(server)).length).toBe(files.length + 9);

    const discarded = await stage(exported);
    expect(await stageDirs()).toContain(discarded.import_id);
    expect((await admin.delete(`admin/import/${discarded.import_id}`)).body).toEqual({
      message: 'The import has been discarded.',
    });
    expect(await stageDirs()).not.toContain(discarded.import_id);
    expect((await admin.get(`admin/import/${discarded.import_id}`)).status).toBe(404);
    expect(await bookCount()).toBe(books + 1);
    expect((await mediaFiles(server)).length).toBe(files.length + 9);
    expect(await tempFiles(server)).toEqual([]);
  });

  it('refuses at commit a control character staged before the rule, as staging now does, and adds no book', async () => {
    const books = await bookCount();
    const { import_id: id } = await stage(exported);
    // What a version without the rule staged (imports last 24 hours): the characters, and no problem named.
    const imports = server.app.get(DataSource).getRepository(StagedImport);
    const manifest = JSON.parse((await imports.findOneByOrFail({ id })).manifest) as {
      book: Record<string, unknown>;
      chapters: Array<{ folder: string; title: string; rows: Array<{ phrase: string }> }>;
    };
    manifest.book.narrated_by = 'Marc\u001b';
    manifest.chapters[0].title = '\u007fUn';
    manifest.chapters[1].rows[0].phrase = 'x\u0001';
    await imports.update({ id }, { manifest: JSON.stringify(manifest) });
    const [first, second] = manifest.chapters.map((chapter) => chapter.folder);
    const problems = [
      'The narrated by field contains a control character (U+001B), which text cannot hold.',
      `${first}: Its title contains a control character (U+007F), which text cannot hold.`,
      `${second}: Row 1: The phrase contains a control character (U+0001), which text cannot hold.`,
    ];
    const refused = await admin.post(`admin/import/${id}/commit`);
    expect([refused.status, refused.body]).toEqual([
      422,
      { message: `The book has 3 problems: ${problems.join(' ')} Fix the zip and import it again.` },
    ]);
    expect(await bookCount()).toBe(books);
    expect((await admin.get<Preview>(`admin/import/${id}`)).body.data.errors).toEqual(problems);
    expect((await admin.delete(`admin/import/${id}`)).status).toBe(200);
  });

  it('answers a damaged manifest with a clear 409 on preview and commit, never a 500', async () => {
    const books = await bookCount();
    const { import_id: id } = await stage(exported);
    const imports = server.app.get(DataSource).getRepository(StagedImport);
    const manifest = JSON.parse((await imports.findOneByOrFail({ id })).manifest) as { chapters: unknown };
    // JSON of the wrong shape: the chapters are not a list.
    await imports.update({ id }, { manifest: JSON.stringify({ ...manifest, chapters: 'all of them' }) });
    const damaged = { message: "This import's data is damaged: stage it again." };
    for (const res of [await admin.get(`admin/import/${id}`), await admin.post(`admin/import/${id}/commit`)])
      expect([res.status, res.body]).toEqual([409, damaged]);
    expect((await imports.findOneByOrFail({ id })).status).toBe('staged');
    expect(await bookCount()).toBe(books);
    expect((await admin.delete(`admin/import/${id}`)).status).toBe(200);
  });

  it('keeps the exported book code when it is free', async () => {
    expect((await admin.delete(`admin/book/${original.book_code}`)).status).toBe(200);
    const preview = await stage(exported);
    const committed = await admin.post<{ data: { book_code: string } }>(
      `admin/import/${preview.import_id}/commit`,
    );
    expect(committed.body.data.book_code).toBe(original.book_code);
    const copy = await contents(original.book_code);
    expect(copy.fields).toEqual(BOOK);
    expect(copy.chapters.map((c) => [c.chapter_no, c.title, c.phrases.map((p) => p.phrase)])).toEqual(
      CHAPTERS.map((c) => [c.chapter_no, c.title, c.phrases.map((p) => p.phrase)]),
    );
    expect(copy.sample.equals(CLIPS[4])).toBe(true);
    expect(await stageDirs()).toEqual([]);
  });

  it('refuses to export a book whose files are missing, before sending a byte', async () => {
    const code = `${original.book_code}-2`;
    const book = await bookOf(code);
    const [{ path }] = await clipPaths(book.id, 5);
    await loseMedia(server, path);
    const res = await admin.get(`admin/book/${code}/export`);
    expect([res.status, res.body]).toEqual([
      422,
      {
        message:
          'The book cannot be exported: 1 of its files is missing from storage (chapters/005/001.mp3). Upload them again first.',
      },
    ]);
  });
});
