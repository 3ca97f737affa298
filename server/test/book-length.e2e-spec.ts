import { ApiClient, newAdmin } from './api-client';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';

interface Length {
  book_code: string;
  title: string;
  hours: number;
  minutes: number;
  length_source: 'clips' | 'typed';
  duration_ms: number | null;
  typed_hours: number;
  typed_minutes: number;
}

const lengthOf = ({ hours, minutes, length_source, duration_ms, typed_hours, typed_minutes }: Length) => ({
  hours,
  minutes,
  length_source,
  duration_ms,
  typed_hours,
  typed_minutes,
});

/** A book's length as docs/catalogue.md says: typed until it has clips, then the sum of its clips. */
describe("A book's length", () => {
  let server: TestServer;
  let admin: ApiClient;
  const guest = () => new ApiClient(server);

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
  });
  afterAll(() => server.close());

  const addPhrase = async (chapterId: number, text: string) => {
    const res = await admin.post<{ data: { id: number } }>(
      'admin/phrase',
      form({
        phrase: text,
        dictionary: 'a — b',
        chapter_id: chapterId,
        line_audio: [fixture('clip.mp3'), 'c.mp3'],
      }),
    );
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data.id;
  };
  const clipMs = async (chapterId: number) => {
    const res = await admin.get<{ data: { phrases: Array<{ duration_ms: number | null }> } }>(
      `admin/phrase?chapter_id=${chapterId}`,
    );
    return res.body.data.phrases.reduce((sum, phrase) => sum + (phrase.duration_ms ?? 0), 0);
  };
  /** The same book as the admin API, the guest API and the catalogue's browse answer it. */
  const everywhere = async (code: string) => {
    const adminBook = (await admin.get<{ data: Length }>(`admin/book/${code}`)).body.data;
    const guestBook = (await guest().get<{ data: Length }>(`guest/book-detail/${code}`)).body.data;
    const browsed = (await guest().get<{ data: Length[] }>('guest/books?per_page=100')).body.data.find(
      (book) => book.book_code === code,
    )!;
    const listed = (await guest().get<{ data: Length[] }>('guest/list-book')).body.data.find(
      (book) => book.book_code === code,
    )!;
    expect(lengthOf(guestBook)).toEqual(lengthOf(adminBook));
    expect(lengthOf(browsed)).toEqual(lengthOf(adminBook));
    expect(lengthOf(listed)).toEqual(lengthOf(adminBook));
    return lengthOf(adminBook);
  };

  it('is typed until the book has clips, then the sum of its clips, on every answer', async () => {
    const created = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title: 'Lange Reise', hours: '5', minutes: '10' }),
    );
    const { id, book_code: code } = created.body.data;
    const typed = {
      hours: 5,
      minutes: 10,
      length_source: 'typed',
      duration_ms: null,
      typed_hours: 5,
      typed_minutes: 10,
    };
    expect(await everywhere(code)).toEqual(typed);

    // An empty chapter has no clips yet: the typed length stays.
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Eins',
      chapter_no: 1,
      book_id: id,
    });
    const chapterId = chapter.body.data.id;
    expect(await everywhere(code)).toEqual(typed);

    const first = await addPhrase(chapterId, 'Der Zug fährt ab.');
    await addPhrase(chapterId, 'Er winkt.');
    const other = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Zwei',
      chapter_no: 2,
      book_id: id,
    });
    await addPhrase(other.body.data.id, 'Sie lacht.');
    const total = (await clipMs(chapterId)) + (await clipMs(other.body.data.id));
    expect(total).toBeGreaterThan(0);
    // A few seconds of clips: at least one minute, as the pages round it.
    const computed = {
      hours: 0,
      minutes: Math.max(1, Math.round(total / 60_000)),
      length_source: 'clips',
      duration_ms: total,
      typed_hours: 5,
      typed_minutes: 10,
    };
    expect(await everywhere(code)).toEqual(computed);

    // Editing the typed length changes what a book without clips would show, not this one.
    const edited = await admin.put(`admin/book/${code}`, {
      title: 'Lange Reise',
      author: 'A',
      narrated_by: 'N',
      description: 'D',
      difficulty: 'Easy',
      sample_text: 'S',
      hours: 7,
      minutes: 0,
    });
    expect(edited.status).toBe(200);
    expect(await everywhere(code)).toEqual({ ...computed, typed_hours: 7, typed_minutes: 0 });

    // Deleting a phrase, then a whole chapter, measures the book again.
    await admin.delete(`admin/phrase/${first}`);
    const less = (await clipMs(chapterId)) + (await clipMs(other.body.data.id));
    expect((await everywhere(code)).duration_ms).toBe(less);
    await admin.delete(`admin/chapter/${chapterId}`);
    await admin.delete(`admin/chapter/${other.body.data.id}`);
    expect(await everywhere(code)).toEqual({
      ...typed,
      typed_hours: 7,
      typed_minutes: 0,
      hours: 7,
      minutes: 0,
    });
  });

  it('orders the shortest first by the length the pages show', async () => {
    // Typed as 9 hours, but its clips last seconds: shorter than a book typed as 30 minutes.
    const long = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title: 'Kurz in Wahrheit', hours: '9', minutes: '0', language: 'de' }),
    );
    await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ title: 'Halbe Stunde', hours: '0', minutes: '30', language: 'de' }),
    );
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Eins',
      chapter_no: 1,
      book_id: long.body.data.id,
    });
    await addPhrase(chapter.body.data.id, 'Kurz.');
    const shortest = await guest().get<{ data: Length[] }>('guest/books?lang=de&sort=shortest');
    expect(shortest.body.data.map((book) => [book.title, book.hours, book.minutes])).toEqual([
      ['Kurz in Wahrheit', 0, 1],
      ['Halbe Stunde', 0, 30],
    ]);
  });
});
