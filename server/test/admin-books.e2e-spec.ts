import { readFileSync, writeFileSync } from 'node:fs';
import { MeasureAhead } from '../publishing/formats/measure-ahead';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { ApiClient, newAdmin } from './api-client';
import {
  BOOK_FIELDS,
  bookForm,
  fixture,
  mediaExists,
  mediaFiles,
  purgeAfterGrace,
  tempFiles,
} from './fixtures';
import { rawGet, startServer, type TestServer } from './harness';
import { eventually } from './eventually';

interface BookBody {
  id: number;
  book_code: string;
  image_path: string;
  sample_audio: string;
  [key: string]: unknown;
}

describe('Admin books API', () => {
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    // tempFiles() waits for clips to be measured (a local copy on S3): measure soon, not 5 s later.
    server.app.get(MeasureAhead).delayMs = 100;
    admin = (await newAdmin(server)).client;
  });
  afterAll(() => server.close());

  /** Whether each URL's file is in the media store (folder or bucket). */
  const stored = (...urls: string[]) => Promise.all(urls.map((url) => mediaExists(server, url)));
  const create = async (overrides = {}) => {
    const res = await admin.post<{ message: string; data: BookBody }>('admin/book', bookForm(overrides));
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data;
  };

  it('answers 404 "No books found" when there are none, and an empty page to a filter or search', async () => {
    for (const query of ['', '?page=2', '?sort=title&per_page=10']) {
      const res = await admin.get(`admin/book${query}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'No books found' });
    }
    const searched = await admin.get('admin/book?q=voyage&lang=fr');
    expect(searched.status).toBe(200);
    expect(searched.body).toEqual({
      data: [],
      meta: { total: 0, page: 1, per_page: 50, facets: { language: {}, cefr: {}, difficulty: {} } },
    });
  });

  it('creates a book with a readable code, re-encoded cover sizes and the sample on disk', async () => {
    const res = await admin.post<{ message: string; data: BookBody }>('admin/book', bookForm());
    expect(res.status).toBe(200);
    const book = res.body.data;
    expect(res.body.message).toBe('The book has been created.');
    expect(book).toEqual({
      id: expect.any(Number),
      book_code: 'le-petit-voyage',
      title: 'Le Petit Voyage',
      author: 'Claire Dubois',
      narrated_by: 'Marc Lefèvre',
      description: 'A short trip to Lyon.',
      difficulty: 'Easy',
      hours: 2,
      minutes: 35,
      // No chapters yet: the typed length is the book's length.
      length_source: 'typed',
      duration_ms: null,
      typed_hours: 2,
      typed_minutes: 35,
      image_path: expect.stringMatching(/^\/media\/covers\/[0-9a-f]{32}-640\.webp$/),
      sample_audio: expect.stringMatching(/^\/media\/samples\/[0-9a-f]{32}\.mp3$/),
      sample_text: 'Line one.\nLine two.',
      language: null,
      cefr: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const key = book.image_path.replace(/^\/media\//, '').replace(/-640\.webp$/, '');
    expect(await mediaFiles(server)).toEqual(
      [
        `${key}-320.webp`,
        `${key}-640.webp`,
        `${key}-960.webp`,
        book.sample_audio.replace('/media/', ''),
      ].sort(),
    );
    const cover = await rawGet(server.baseUrl + book.image_path);
    const meta = await sharp(cover.body).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 640, 960, undefined]);
    expect(cover.headers['content-type']).toBe('image/webp');
    expect(cover.headers['x-content-type-options']).toBe('nosniff');
    expect(await tempFiles(server)).toEqual([]);

    expect((await admin.get(`admin/book/${book.book_code}`)).body).toEqual({ data: book });
    expect((await admin.get('admin/book')).body).toEqual({
      data: [book],
      meta: {
        total: 1,
        page: 1,
        per_page: 50,
        facets: { language: { none: 1 }, cefr: { none: 1 }, difficulty: { Easy: 1 } },
      },
    });
  });

  it('adds a suffix when two titles make the same code', async () => {
    const again = await create();
    expect(again.book_code).toBe('le-petit-voyage-2');
  });

  it('requires every field and both files on Add Book, keeping nothing', async () => {
    const before = await mediaFiles(server);
    const res = await admin.post('admin/book', new FormData());
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      title: ['The title field is required.'],
      author: ['The author field is required.'],
      narrated_by: ['The narrated by field is required.'],
      hours: ['The hours field is required.'],
      minutes: ['The minutes field is required.'],
      description: ['The description field is required.'],
      difficulty: ['The difficulty field is required.'],
      sample_text: ['The sample text field is required.'],
      book_image: ['The book image field is required.'],
      sample_audio: ['The sample audio field is required.'],
    });
    expect(await mediaFiles(server)).toEqual(before);
  });

  it('checks difficulty, hours and minutes, and leaves no file behind', async () => {
    const before = await mediaFiles(server);
    const res = await admin.post(
      'admin/book',
      bookForm({ difficulty: 'Expert', hours: '-1', minutes: '60' }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      difficulty: ['The difficulty must be Easy, Medium or Hard.'],
      hours: ['The hours must be 0 or more.'],
      minutes: ['The minutes must be between 0 and 59.'],
    });
    const decimal = await admin.post('admin/book', bookForm({ hours: '1.5' }));
    expect(decimal.body.errors).toEqual({ hours: ['The hours must be a whole number.'] });
    expect(await mediaFiles(server)).toEqual(before);
    expect(await tempFiles(server)).toEqual([]);
  });

  it('names every problem in one 422: the fields, and the files by their content', async () => {
    const before = await mediaFiles(server);
    const res = await admin.post(
      'admin/book',
      bookForm({
        title: '',
        minutes: '75',
        language: 'not a language',
        book_image: [fixture('page.png'), 'page.png'],
        sample_audio: [fixture('text.mp3'), 'text.mp3'],
      }),
    );
    expect(res.status).toBe(422);
    const errors = {
      title: ['The title field is required.'],
      minutes: ['The minutes must be between 0 and 59.'],
      language: ['The language must be a language code such as fr, es or pt-PT.'],
      book_image: ['The cover must be a JPEG, PNG or WebP image.'],
      sample_audio: ['The audio must be an MP3, M4A/AAC, OGG or WAV file.'],
    };
    expect(res.body).toEqual({ message: expect.any(String), errors });
    // The summary is one of them (the page lists them all).
    expect(Object.values(errors).flat()).toContain(res.body.message);
    // A JPEG cut short passes its first bytes but not the decoding: named with the other problems too.
    const jpeg = readFileSync(join(__dirname, 'fixtures', 'cover.jpg'));
    const cut = await admin.post(
      'admin/book',
      bookForm({
        difficulty: 'Expert',
        book_image: [new Blob([jpeg.subarray(0, Math.floor(jpeg.length / 3))]), 'cut.jpg'],
      }),
    );
    expect(cut.status).toBe(422);
    expect(cut.body.errors).toEqual({
      difficulty: ['The difficulty must be Easy, Medium or Hard.'],
      book_image: ['The cover image could not be read. Please upload a valid JPEG, PNG or WebP file.'],
    });
    expect(await mediaFiles(server)).toEqual(before);
    // Edit Book too: a refused new cover is reported with a refused field.
    const book = await create();
    const beforeEdit = await mediaFiles(server);
    const edit = await admin.post(
      `admin/book/${book.book_code}?_method=put`,
      bookForm({ hours: 'many', book_image: [fixture('page.png'), 'page.png'], sample_audio: undefined }),
    );
    expect(edit.status).toBe(422);
    expect(edit.body.errors).toEqual({
      hours: ['The hours must be a whole number.'],
      book_image: ['The cover must be a JPEG, PNG or WebP image.'],
    });
    expect(await mediaFiles(server)).toEqual(beforeEdit);
    expect(await tempFiles(server)).toEqual([]);
    await admin.delete(`admin/book/${book.book_code}`);
  });

  it('refuses impostors by their content, under the field name, and keeps no file', async () => {
    const before = await mediaFiles(server);
    const res = await admin.post(
      'admin/book',
      bookForm({
        book_image: [fixture('page.png'), 'page.png'],
        sample_audio: [fixture('text.mp3'), 'text.mp3'],
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      book_image: ['The cover must be a JPEG, PNG or WebP image.'],
      sample_audio: ['The audio must be an MP3, M4A/AAC, OGG or WAV file.'],
    });
    const half = await admin.post(
      'admin/book',
      bookForm({ sample_audio: [fixture('cover.png'), 'song.mp3'] }),
    );
    expect(half.status).toBe(422);
    expect(half.body.errors).toEqual({
      sample_audio: ['The audio must be an MP3, M4A/AAC, OGG or WAV file.'],
    });
    expect(await mediaFiles(server)).toEqual(before);
    expect(await tempFiles(server)).toEqual([]);
  });

  it('answers 413 to a cover over 5 MB and cuts the upload off', async () => {
    const big = join(tmpdir(), `big-${Date.now()}.jpg`);
    writeFileSync(big, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(6 * 1024 * 1024)]));
    const before = await mediaFiles(server);
    const res = await admin.post(
      'admin/book',
      bookForm({ book_image: [fixture('cover.jpg').slice(0, 0), 'x'] }),
    );
    expect(res.status).toBe(422);
    const oversize = await admin.post(
      'admin/book',
      bookForm({ book_image: [new Blob([readFileSync(big)]), 'big.jpg'] }),
    );
    expect(oversize.status).toBe(413);
    expect(oversize.body).toEqual({ message: 'The book image file is too large. The limit is 5 MB.' });
    expect(await mediaFiles(server)).toEqual(before);
    // The partial file is removed as its stream fails, which may trail the answer.
    await eventually(async () => (await tempFiles(server)).length === 0, 'the partial upload to go');
  });

  it('updates a book through POST ?_method=put and PUT, replacing files and deleting the old ones', async () => {
    const book = await create({ title: 'Der Leuchtturm' });
    const onlyFields = new FormData();
    for (const [key, value] of Object.entries({
      ...BOOK_FIELDS,
      title: 'Der Leuchtturmwärter',
      difficulty: 'Hard',
    }))
      onlyFields.set(key, value);
    const kept = await admin.post<{ message: string; data: BookBody }>(
      `admin/book/${book.book_code}?_method=put`,
      onlyFields,
    );
    expect(kept.status).toBe(200);
    expect(kept.body.message).toBe('The book has been updated.');
    expect(kept.body.data).toEqual(
      expect.objectContaining({
        book_code: 'der-leuchtturm',
        title: 'Der Leuchtturmwärter',
        difficulty: 'Hard',
        image_path: book.image_path,
      }),
    );

    const replaced = await admin.request<{ data: BookBody }>(
      'PUT',
      `admin/book/${book.book_code}`,
      bookForm({ title: 'Der Leuchtturmwärter' }),
    );
    expect(replaced.status).toBe(200);
    const updated = replaced.body.data;
    expect(updated.image_path).not.toBe(book.image_path);
    expect(updated.sample_audio).not.toBe(book.sample_audio);
    expect(await stored(updated.image_path, updated.sample_audio)).toEqual([true, true]);
    // The replaced files stay for the grace period (a backup may be copying them), then go.
    expect(await stored(book.image_path, book.sample_audio)).toEqual([true, true]);
    await purgeAfterGrace(server);
    expect(await stored(book.image_path, book.sample_audio)).toEqual([false, false]);
    expect(await stored(book.image_path.replace('-640.', '-320.'))).toEqual([false]);
    expect(await stored(updated.image_path, updated.sample_audio)).toEqual([true, true]);
  });

  it('keeps an optional language code, checked, and clears it when sent empty', async () => {
    const book = await create({ title: 'O Segredo', language: 'pt-PT' });
    expect(book.language).toBe('pt-PT');
    const bad = await admin.post(
      `admin/book/${book.book_code}?_method=put`,
      bookForm({ language: 'Portuguese!' }),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      language: ['The language must be a language code such as fr, es or pt-PT.'],
    });
    const fields = new FormData();
    for (const [key, value] of Object.entries({ ...BOOK_FIELDS, title: 'O Segredo', language: '' }))
      fields.set(key, value);
    const cleared = await admin.post<{ data: BookBody }>(`admin/book/${book.book_code}?_method=put`, fields);
    expect(cleared.body.data.language).toBeNull();
  });

  it('never takes a path a client names for an uploaded file', async () => {
    const book = await create({ title: 'Victim Check' });
    const victim = join(server.storageDir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const json = await admin.request('PUT', `admin/book/${book.book_code}`, {
      ...BOOK_FIELDS,
      sample_audio: { path: victim, size: 7, originalname: 'x.mp3' },
    });
    expect(json.status).toBe(422);
    expect(json.body.errors).toEqual({ sample_audio: ['The sample audio must be an uploaded file.'] });
    const encoded = new URLSearchParams({ ...BOOK_FIELDS, 'book_image[path]': victim });
    expect((await admin.request('PUT', `admin/book/${book.book_code}`, encoded)).status).toBe(422);
    const multipart = bookForm({ book_image: undefined, sample_audio: undefined });
    multipart.set('book_image[path]', victim);
    const spoofed = await admin.request<{ data: BookBody }>('PUT', `admin/book/${book.book_code}`, multipart);
    expect(spoofed.status).toBe(200);
    expect(spoofed.body.data.image_path).toBe(book.image_path);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
  });

  it('keeps the old files when an edit is refused', async () => {
    const book = await create({ title: 'Una Estate' });
    const res = await admin.post(`admin/book/${book.book_code}?_method=put`, bookForm({ minutes: '75' }));
    expect(res.status).toBe(422);
    expect(await stored(book.image_path, book.sample_audio)).toEqual([true, true]);
    expect((await admin.get(`admin/book/${book.book_code}`)).body.data).toEqual(book);
  });

  it('keeps a book deleted while an edit of it was still storing its files', async () => {
    const book = await create({ title: 'Gone Meanwhile' });
    const edit = admin.request('PUT', `admin/book/${book.book_code}`, bookForm({ title: 'Gone Meanwhile' }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const removed = await admin.delete(`admin/book/${book.book_code}`);
    expect(removed.status).toBe(200);
    expect([200, 404]).toContain((await edit).status);
    expect((await admin.get(`admin/book/${book.book_code}`)).status).toBe(404);
    await purgeAfterGrace(server);
    expect((await mediaFiles(server)).filter((file) => file.includes(book.image_path.slice(14, 46)))).toEqual(
      [],
    );
  });

  it('answers 404 for an unknown code on read, update and delete', async () => {
    for (const res of [
      await admin.get('admin/book/nope'),
      await admin.post('admin/book/nope?_method=put', bookForm()),
      await admin.delete('admin/book/nope'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Book not found.' });
    }
  });

  it('deletes a book with its chapters, phrases and every file', async () => {
    const book = await create({ title: 'El Gato' });
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Uno',
      chapter_no: 1,
      book_id: book.id,
    });
    const phrase = await admin.post<{ data: { line_audio: string } }>(
      'admin/phrase',
      (() => {
        const data = new FormData();
        data.set('phrase', 'Hola.');
        data.set('dictionary', 'hola — hello');
        data.set('chapter_id', String(chapter.body.data.id));
        data.set('line_audio', fixture('clip.mp3'), 'hola.mp3');
        return data;
      })(),
    );
    expect(phrase.status).toBe(200);
    expect(await stored(phrase.body.data.line_audio)).toEqual([true]);

    const res = await admin.delete(`admin/book/${book.book_code}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'The book has been deleted.' });
    expect(await stored(book.image_path, book.sample_audio, phrase.body.data.line_audio)).toEqual([
      true,
      true,
      true,
    ]);
    await purgeAfterGrace(server);
    expect(await stored(book.image_path, book.sample_audio, phrase.body.data.line_audio)).toEqual([
      false,
      false,
      false,
    ]);
    expect((await admin.get(`admin/chapter/${chapter.body.data.id}`)).status).toBe(404);
    expect((await admin.get(`admin/book/${book.book_code}`)).status).toBe(404);
  });
});
