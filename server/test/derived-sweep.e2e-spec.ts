import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { PhrasesRepository } from '../content/catalogue/repository/phrases.repository';
import { AudioMeasures } from '../publishing/formats/audio-measures';
import { DerivedSweep } from '../publishing/formats/derived-sweep';
import { transcodeKey } from '../publishing/formats/epub-clips';
import { DERIVED_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { opdsCoverKey } from '../publishing/opds/opds-covers';
import { newAdmin, type ApiClient } from './api-client';
import { bookForm, fixture, form, purgeAfterGrace } from './fixtures';
import { startServer, type TestServer } from './harness';

/**
 * The derived store's sweep (docs/formats.md "The derived store"): files made from media that no row
 * points to any more go, with the lengths kept for them; anything still used, young, or another part's
 * (audiobooks/) stays.
 */
describe("The derived store's sweep", () => {
  let server: TestServer;
  let admin: ApiClient;
  let derived: MediaStore;
  const TWO_HOURS = 2 * 3_600_000;

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    derived = server.app.get<MediaStore>(DERIVED_STORE);
  });
  afterAll(() => server.close());

  /** Stores a small file in the derived store under `key`, as a transcode or a conversion would. */
  async function putDerived(key: string): Promise<void> {
    const file = join(server.storageDir, 'derived-fixture');
    writeFileSync(file, 'made from media');
    await derived.put(key, file);
  }

  async function addPhrase(chapterId: number, text: string): Promise<{ id: number; audioPath: string }> {
    const res = await admin.post<{ data: { id: number } }>(
      'admin/phrase',
      form({
        phrase: text,
        dictionary: 'word — meaning',
        chapter_id: chapterId,
        line_audio: [fixture('clip.mp3'), 'x.mp3'],
      }),
    );
    if (res.status !== 200) throw new Error(res.text);
    const row = await server.app.get(PhrasesRepository).byId(res.body.data.id);
    return { id: res.body.data.id, audioPath: row!.audioPath };
  }

  it("removes an unused line's transcode and the lengths nothing uses, once they are an hour old", async () => {
    const book = await admin.post<{ data: { id: number; book_code: string } }>('admin/book', bookForm());
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'One',
      chapter_no: 1,
      book_id: book.body.data.id,
    });
    const kept = await addPhrase(chapter.body.data.id, 'Kept.');
    const deleted = await addPhrase(chapter.body.data.id, 'Deleted.');
    for (const phrase of [kept, deleted]) await putDerived(transcodeKey(phrase.audioPath));
    await putDerived('audiobooks/another-part-owns-this.m4b');
    const measures = server.app.get(AudioMeasures);
    for (const phrase of [kept, deleted]) {
      await measures.record(phrase.audioPath, 1_000_000, 'media');
      await measures.record(transcodeKey(phrase.audioPath), 1_000_000);
    }
    expect((await admin.delete(`admin/phrase/${deleted.id}`)).status).toBe(200);

    const sweep = server.app.get(DerivedSweep);
    // Young files and lengths stay whatever they are.
    expect(await sweep.sweep()).toEqual({ files: 0, lengths: 0 });
    expect(await derived.head(transcodeKey(deleted.audioPath))).not.toBeNull();

    // While its media is in the trash (an EPUB being streamed may still read the line), it stays.
    expect(await sweep.sweep(new Date(Date.now() + TWO_HOURS))).toEqual({ files: 0, lengths: 0 });
    // Once the trash's hour is over: the deleted line's transcode goes, with its length and its media's.
    await purgeAfterGrace(server);
    expect(await sweep.sweep(new Date(Date.now() + TWO_HOURS))).toEqual({ files: 1, lengths: 2 });
    expect(await derived.head(transcodeKey(deleted.audioPath))).toBeNull();
    expect(await derived.head(transcodeKey(kept.audioPath))).not.toBeNull();
    expect(await derived.head('audiobooks/another-part-owns-this.m4b')).not.toBeNull();
    // The book's sample keeps its length too (measured at its upload).
    const sample = (await server.app.get(BooksRepository).byCode(book.body.data.book_code))!.sampleAudioPath;
    expect((await measures.keptAfter('', 100)).map((row) => row.audioKey)).toEqual(
      [`derived:${transcodeKey(kept.audioPath)}`, `media:${kept.audioPath}`, `media:${sample}`].sort(),
    );
    // Nothing left to do: a second sweep removes nothing.
    expect(await sweep.sweep(new Date(Date.now() + TWO_HOURS))).toEqual({ files: 0, lengths: 0 });
  });

  it("removes a replaced cover's OPDS JPEGs and keeps the new cover's", async () => {
    const book = await admin.post<{ data: { book_code: string } }>('admin/book', bookForm());
    const code = book.body.data.book_code;
    const coverOf = async () => (await server.app.get(BooksRepository).byCode(code))!.coverPath;
    const jpeg = () => fetch(`${server.baseUrl}/api/v1/opds/covers/${code}/640.jpg`);
    expect((await jpeg()).status).toBe(200);
    const old = await coverOf();
    expect(await derived.head(opdsCoverKey(old, 640))).not.toBeNull();

    const replaced = await admin.post(
      `admin/book/${code}?_method=put`,
      bookForm({ book_image: [fixture('cover.png'), 'cover.png'] }),
    );
    expect(replaced.status).toBe(200);
    expect((await jpeg()).status).toBe(200);
    const now = await coverOf();
    expect(now).not.toBe(old);

    await server.app.get(DerivedSweep).sweep(new Date(Date.now() + TWO_HOURS));
    expect(await derived.head(opdsCoverKey(old, 640))).not.toBeNull();
    await purgeAfterGrace(server);
    await server.app.get(DerivedSweep).sweep(new Date(Date.now() + TWO_HOURS));
    expect(await derived.head(opdsCoverKey(old, 640))).toBeNull();
    expect(await derived.head(opdsCoverKey(now, 640))).not.toBeNull();
  });
});
