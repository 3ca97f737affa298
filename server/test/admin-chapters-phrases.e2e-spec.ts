import { ApiClient, newAdmin } from './api-client';
import { MeasureAhead } from '../publishing/formats/measure-ahead';
import { bookForm, fixture, form, mediaExists, mediaFiles, purgeAfterGrace, tempFiles } from './fixtures';
import { startServer, type TestServer } from './harness';

interface PhraseBody {
  id: number;
  chapter_id: number;
  position: number;
  phrase: string;
  dictionary: string;
  line_audio: string;
  duration_ms: number | null;
}

describe('Admin chapters and phrases API', () => {
  let server: TestServer;
  let admin: ApiClient;
  let book: { id: number; book_code: string; title: string };

  beforeAll(async () => {
    server = await startServer();
    // tempFiles() waits for clips to be measured (a local copy on S3): measure soon, not 5 s later.
    server.app.get(MeasureAhead).delayMs = 100;
    admin = (await newAdmin(server)).client;
    book = (await admin.post<{ data: typeof book }>('admin/book', bookForm({ title: 'Die Kartografin' })))
      .body.data;
  });
  afterAll(() => server.close());

  /** Whether each URL's file is in the media store (folder or bucket). */
  const stored = (...urls: string[]) => Promise.all(urls.map((url) => mediaExists(server, url)));
  const addChapter = async (title: string, chapter_no: number) =>
    (await admin.post<{ data: { id: number } }>('admin/chapter', { title, chapter_no, book_id: book.id }))
      .body.data.id;
  const addPhrase = async (chapterId: number, text: string) => {
    const res = await admin.post<{ data: PhraseBody }>(
      'admin/phrase',
      form({
        phrase: text,
        dictionary: 'Karte — map\r\nStadt — city',
        chapter_id: chapterId,
        line_audio: [fixture('clip.mp3'), 'x.mp3'],
      }),
    );
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data;
  };

  it('lists a book with no chapters as an empty list, and an unknown book as 404', async () => {
    const res = await admin.get(`admin/chapter?book_id=${book.id}`);
    expect(res.body).toEqual({
      data: { id: book.id, book_code: book.book_code, title: 'Die Kartografin', chapters: [] },
    });
    const unknown = await admin.get('admin/chapter?book_id=99999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Book not found.' });
    const missing = await admin.get('admin/chapter');
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ book_id: ['The book id field is required.'] });
  });

  it('creates, reads, edits and lists chapters in chapter order', async () => {
    const created = await admin.post('admin/chapter', { title: 'Zwei', chapter_no: 2, book_id: book.id });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      message: 'The chapter has been created.',
      data: { id: expect.any(Number), book_id: book.id, title: 'Zwei', chapter_no: 2 },
    });
    const firstId = await addChapter('Eins', 1);

    const read = await admin.get(`admin/chapter/${firstId}`);
    expect(read.body).toEqual({
      data: {
        id: firstId,
        book_id: book.id,
        title: 'Eins',
        chapter_no: 1,
        book_code: book.book_code,
        book_title: 'Die Kartografin',
      },
    });

    const edited = await admin.put(
      `admin/chapter/${firstId}`,
      new URLSearchParams({ book_id: String(book.id), title: 'Der Anfang', chapter_no: '1' }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({
      message: 'The chapter has been updated.',
      data: expect.objectContaining({ title: 'Der Anfang' }),
    });

    const list = await admin.get<{
      data: { chapters: Array<{ title: string; chapter_no: number; phrase_count: number }> };
    }>(`admin/chapter?book_id=${book.id}`);
    expect(list.body.data.chapters.map((c) => [c.chapter_no, c.title, c.phrase_count])).toEqual([
      [1, 'Der Anfang', 0],
      [2, 'Zwei', 0],
    ]);
  });

  it('validates chapters: required, a positive whole number, unique per book, an existing book', async () => {
    expect((await admin.post('admin/chapter', {})).body.errors).toEqual({
      title: ['The title field is required.'],
      chapter_no: ['The chapter number field is required.'],
      book_id: ['The book id field is required.'],
    });
    expect(
      (await admin.post('admin/chapter', { title: 'X', chapter_no: 'three', book_id: book.id })).body.errors,
    ).toEqual({
      chapter_no: ['The chapter number must be a whole number.'],
    });
    expect(
      (await admin.post('admin/chapter', { title: 'X', chapter_no: 0, book_id: book.id })).body.errors,
    ).toEqual({
      chapter_no: ['The chapter number must be 1 or more.'],
    });
    const duplicate = await admin.post('admin/chapter', { title: 'X', chapter_no: 1, book_id: book.id });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body).toEqual({
      message: 'This book already has a chapter with that number.',
      errors: { chapter_no: ['This book already has a chapter with that number.'] },
    });
    expect(
      (await admin.post('admin/chapter', { title: 'X', chapter_no: 9, book_id: 424242 })).body.errors,
    ).toEqual({
      book_id: ['The selected book does not exist.'],
    });
    expect((await admin.get('admin/chapter/abc')).status).toBe(404);
    expect((await admin.get('admin/chapter/999999')).body).toEqual({ message: 'Chapter not found.' });
  });

  it('appends phrases with their audio and duration, and lists them in reading order', async () => {
    const chapterId = await addChapter('Drei', 3);
    const first = await addPhrase(chapterId, 'Sie zeichnet eine Karte.');
    expect(first).toEqual({
      id: expect.any(Number),
      chapter_id: chapterId,
      position: 1,
      phrase: 'Sie zeichnet eine Karte.',
      dictionary: 'Karte — map\nStadt — city',
      // Chapter 3 is locked to readers, so even the admin screens get a signed URL (an <audio> sends no token).
      line_audio: expect.stringMatching(/^\/media\/lines\/[0-9a-f]{32}\.mp3\?exp=\d+&sig=[\w-]+$/),
      duration_ms: expect.any(Number),
      translations: {},
    });
    expect(first.duration_ms).toBeGreaterThan(500);
    expect(await stored(first.line_audio)).toEqual([true]);
    const second = await addPhrase(chapterId, 'Die Stadt schläft.');
    expect(second.position).toBe(2);

    const list = await admin.get(`admin/phrase?chapter_id=${chapterId}`);
    expect(list.body).toEqual({
      data: {
        id: chapterId,
        title: 'Drei',
        chapter_no: 3,
        book_id: book.id,
        book_code: book.book_code,
        book_title: 'Die Kartografin',
        phrases: [first, second],
      },
    });
    const counts = await admin.get<{
      data: { chapters: Array<{ id: number; phrase_count: number; duration_ms: number }> };
    }>(`admin/chapter?book_id=${book.id}`);
    const summary = counts.body.data.chapters.find((c) => c.id === chapterId)!;
    expect(summary.phrase_count).toBe(2);
    expect(summary.duration_ms).toBe(first.duration_ms! + second.duration_ms!);
  });

  it('requires phrase, dictionary and an audio file, checked by content', async () => {
    const chapterId = await addChapter('Vier', 4);
    const before = await mediaFiles(server);
    expect((await admin.post('admin/phrase', new FormData())).body.errors).toEqual({
      phrase: ['The phrase field is required.'],
      dictionary: ['The dictionary field is required.'],
      chapter_id: ['The chapter id field is required.'],
      line_audio: ['The line audio field is required.'],
    });
    const impostor = await admin.post(
      'admin/phrase',
      form({
        phrase: 'P',
        dictionary: 'D',
        chapter_id: chapterId,
        line_audio: [fixture('text.mp3'), 'a.mp3'],
      }),
    );
    expect(impostor.status).toBe(422);
    expect(impostor.body.errors).toEqual({
      line_audio: ['The audio must be an MP3, M4A/AAC, OGG or WAV file.'],
    });
    const wrongField = await admin.post(
      'admin/phrase',
      form({
        phrase: 'P',
        dictionary: 'D',
        chapter_id: chapterId,
        book_image: [fixture('cover.jpg'), 'c.jpg'],
      }),
    );
    expect(wrongField.body.errors).toEqual({ book_image: ['The book image field does not accept a file.'] });
    const big = await admin.post(
      'admin/phrase',
      form({
        phrase: 'P',
        dictionary: 'D',
        chapter_id: chapterId,
        line_audio: [new Blob([Buffer.alloc(11 * 1024 * 1024, 0xff)]), 'big.mp3'],
      }),
    );
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ message: 'The line audio file is too large. The limit is 10 MB.' });
    const unknownChapter = await admin.post(
      'admin/phrase',
      form({ phrase: 'P', dictionary: 'D', chapter_id: 999999, line_audio: [fixture('clip.mp3'), 'a.mp3'] }),
    );
    expect(unknownChapter.body.errors).toEqual({ chapter_id: ['The selected chapter does not exist.'] });
    expect(await mediaFiles(server)).toEqual(before);
    expect(await tempFiles(server)).toEqual([]);
  });

  it('edits a phrase, keeping its audio unless a new one is sent, then deleting the old file', async () => {
    const chapterId = await addChapter('Fünf', 5);
    const phrase = await addPhrase(chapterId, 'Alt.');
    const textOnly = await admin.post<{ data: PhraseBody }>(
      `admin/phrase/${phrase.id}?_method=put`,
      form({ phrase: 'Neu.', dictionary: 'neu — new' }),
    );
    expect(textOnly.status).toBe(200);
    expect(textOnly.body.data).toEqual({ ...phrase, phrase: 'Neu.', dictionary: 'neu — new' });
    const newAudio = await admin.request<{ data: PhraseBody }>(
      'PUT',
      `admin/phrase/${phrase.id}`,
      form({ phrase: 'Neu.', dictionary: 'neu — new', line_audio: [fixture('clip.mp3'), 'b.mp3'] }),
    );
    expect(newAudio.body.data.line_audio).not.toBe(phrase.line_audio);
    // The old clip stays for the grace period (a backup may be copying it), then goes.
    expect(await stored(phrase.line_audio, newAudio.body.data.line_audio)).toEqual([true, true]);
    await purgeAfterGrace(server);
    expect(await stored(phrase.line_audio, newAudio.body.data.line_audio)).toEqual([false, true]);
    expect((await admin.get(`admin/phrase/${phrase.id}`)).body).toEqual({ data: newAudio.body.data });
  });

  it('reorders phrases, refusing a list that is not exactly the chapter', async () => {
    const chapterId = await addChapter('Sechs', 6);
    const [a, b, c] = [
      await addPhrase(chapterId, 'A'),
      await addPhrase(chapterId, 'B'),
      await addPhrase(chapterId, 'C'),
    ];
    const res = await admin.put<{ data: { phrases: PhraseBody[] } }>(
      `admin/chapter/${chapterId}/phrase-order`,
      { ids: [c.id, a.id, b.id] },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.phrases.map((p) => [p.phrase, p.position])).toEqual([
      ['C', 1],
      ['A', 2],
      ['B', 3],
    ]);
    for (const ids of [
      [a.id, b.id],
      [a.id, b.id, b.id],
      [a.id, b.id, 999999],
    ]) {
      const refused = await admin.put(`admin/chapter/${chapterId}/phrase-order`, { ids });
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        message: "The new order must list each of the chapter's phrases exactly once.",
      });
    }
    expect((await admin.put(`admin/chapter/${chapterId}/phrase-order`, { ids: 'x' })).status).toBe(422);
    const phrases = (
      await admin.get<{ data: { phrases: PhraseBody[] } }>(`admin/phrase?chapter_id=${chapterId}`)
    ).body.data.phrases;
    expect(phrases.map((p) => p.phrase)).toEqual(['C', 'A', 'B']);
  });

  it('deletes a phrase and closes the gap; deletes a chapter with its phrases and audio', async () => {
    const chapterId = await addChapter('Sieben', 7);
    const [a, b, c] = [
      await addPhrase(chapterId, 'A'),
      await addPhrase(chapterId, 'B'),
      await addPhrase(chapterId, 'C'),
    ];
    const removed = await admin.delete(`admin/phrase/${b.id}`);
    expect(removed.body).toEqual({ message: 'The phrase has been deleted.' });
    expect(await stored(b.line_audio)).toEqual([true]);
    await purgeAfterGrace(server);
    expect(await stored(b.line_audio)).toEqual([false]);
    const phrases = (
      await admin.get<{ data: { phrases: PhraseBody[] } }>(`admin/phrase?chapter_id=${chapterId}`)
    ).body.data.phrases;
    expect(phrases.map((p) => [p.phrase, p.position])).toEqual([
      ['A', 1],
      ['C', 2],
    ]);

    const gone = await admin.delete(`admin/chapter/${chapterId}`);
    expect(gone.body).toEqual({ message: 'The chapter has been deleted.' });
    expect(await stored(a.line_audio, c.line_audio)).toEqual([true, true]);
    await purgeAfterGrace(server);
    expect(await stored(a.line_audio, c.line_audio)).toEqual([false, false]);
    expect((await admin.get(`admin/phrase?chapter_id=${chapterId}`)).status).toBe(404);
    expect((await admin.delete(`admin/phrase/${a.id}`)).status).toBe(404);
  });
});
