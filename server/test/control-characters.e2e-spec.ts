import { DataSource } from 'typeorm';
import { ApiClient, newAdmin, newMember } from './api-client';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';

type Errors = { message: string; errors: Record<string, string[]> };
type Phrase = {
  data: { id: number; phrase: string; dictionary: string; translations: Record<string, string> };
};
type Book = { data: Record<string, unknown> & { id: number; book_code: string } };

/** How a message names `char`: "a control character (U+001B)", "a noncharacter (U+FFFE)". */
function named(char: string) {
  const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${char === '\ufffe' || char === '\uffff' ? 'a noncharacter' : 'a control character'} (${code})`;
}

/** The 422 of a field holding `char`, as every form answers it. */
function refusal(field: string, label: string, char: string) {
  const message = `The ${label} field contains ${named(char)}, which text cannot hold.`;
  return { message, errors: { [field]: [message] } };
}

/** A sample of what no stored text may hold: C0 controls, DEL, a C1 control, the two noncharacters. */
const CHARS = ['\u0001', '\u001b', '\u007f', '\u0085', '\ufffe', '\uffff', '\u000c', '\u0008'];

/**
 * Control characters in the text fields of forms (docs/api.md, "Text"): refused with a 422 naming the
 * field, in JSON, url-encoded and multipart bodies alike, nothing written; tabs and a textarea's CRLF kept;
 * passwords and dictation answers take any character.
 */
describe('Control characters in stored text', () => {
  let server: TestServer;
  let admin: ApiClient;
  let book: Book['data'];
  let chapterId: number;
  let phraseId: number;

  const count = async (table: string) =>
    Number(
      (
        await server.app
          .get(DataSource)
          .query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM ${table}`)
      )[0].n,
    );

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    book = (await admin.post<Book>('admin/book', bookForm({ language: 'fr' }))).body.data;
    chapterId = (
      await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: 'Un',
        chapter_no: 1,
        book_id: book.id,
      })
    ).body.data.id;
    const phrase = await admin.post<Phrase>(
      'admin/phrase',
      form({
        chapter_id: chapterId,
        phrase: 'Bonjour le monde.',
        dictionary: 'bonjour — hello',
        line_audio: [fixture('clip.mp3'), 'clip.mp3'],
      }),
    );
    phraseId = phrase.body.data.id;
  });
  afterAll(() => server.close());

  it('refuses them in every text field of a new book (multipart), naming it, and adds no book', async () => {
    const books = await count('books');
    const fields: Array<[string, string]> = [
      ['title', 'title'],
      ['author', 'author'],
      ['narrated_by', 'narrated by'],
      ['description', 'description'],
      ['sample_text', 'sample text'],
    ];
    for (const [i, [field, label]] of fields.entries()) {
      const char = CHARS[i];
      const res = await admin.post<Errors>('admin/book', bookForm({ [field]: `Le ${char} voyage` }));
      expect([res.status, res.body]).toEqual([422, refusal(field, label, char)]);
    }
    expect(await count('books')).toBe(books);
  });

  it('refuses them in an edited book, as JSON and as a url-encoded form, and leaves the book as it was', async () => {
    const fields = {
      title: 'Le Petit Voyage',
      author: 'Claire Dubois',
      narrated_by: 'Marc Lefèvre',
      hours: 2,
      minutes: 35,
      description: 'Une ligne.\r\nUne autre.',
      difficulty: 'Easy',
      sample_text: 'Un\tdeux.',
    };
    for (const char of CHARS) {
      const json = await admin.put<Errors>(`admin/book/${book.book_code}`, {
        ...fields,
        description: `Une ligne.\r\nUne ${char}autre.`,
      });
      expect([json.status, json.body]).toEqual([422, refusal('description', 'description', char)]);
      const encoded = await admin.put<Errors>(
        `admin/book/${book.book_code}`,
        new URLSearchParams({ ...fields, hours: '2', minutes: '35', author: `Claire${char}Dubois` }),
      );
      expect([encoded.status, encoded.body]).toEqual([422, refusal('author', 'author', char)]);
    }
    const unchanged = (await admin.get<Book>(`admin/book/${book.book_code}`)).body.data;
    expect(unchanged).toEqual(
      expect.objectContaining({ description: 'A short trip to Lyon.', author: 'Claire Dubois' }),
    );
    // A tab and a textarea's CRLF are text: saved, the CRLF as LF.
    const saved = await admin.put<Book>(`admin/book/${book.book_code}`, fields);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual(
      expect.objectContaining({ description: 'Une ligne.\nUne autre.', sample_text: 'Un\tdeux.' }),
    );
  });

  it('refuses them in a chapter title, as JSON and as a form, and adds or changes no chapter', async () => {
    const chapters = await count('chapters');
    for (const char of CHARS) {
      const created = await admin.post<Errors>('admin/chapter', {
        title: `De${char}ux`,
        chapter_no: 2,
        book_id: book.id,
      });
      expect([created.status, created.body]).toEqual([422, refusal('title', 'title', char)]);
      const edited = await admin.put<Errors>(
        `admin/chapter/${chapterId}`,
        new URLSearchParams({ title: `U${char}n`, chapter_no: '1', book_id: String(book.id) }),
      );
      expect([edited.status, edited.body]).toEqual([422, refusal('title', 'title', char)]);
    }
    expect(await count('chapters')).toBe(chapters);
    expect((await admin.get<{ data: { title: string } }>(`admin/chapter/${chapterId}`)).body.data.title).toBe(
      'Un',
    );
  });

  it('refuses them in a phrase, its glossary or a translation; a CRLF glossary and a tab are kept', async () => {
    const phrases = await count('phrases');
    const phraseForm = (fields: Record<string, string>) =>
      form({
        chapter_id: chapterId,
        phrase: 'Au revoir.',
        dictionary: 'revoir — to see again',
        line_audio: [fixture('clip.mp3'), 'clip.mp3'],
        ...fields,
      });
    for (const char of CHARS) {
      const phrase = await admin.post<Errors>('admin/phrase', phraseForm({ phrase: `Au ${char}revoir.` }));
      expect([phrase.status, phrase.body]).toEqual([422, refusal('phrase', 'phrase', char)]);
      const glossary = await admin.post<Errors>(
        'admin/phrase',
        phraseForm({ dictionary: `au — to\r\nrevoir — to see${char} again` }),
      );
      expect([glossary.status, glossary.body]).toEqual([422, refusal('dictionary', 'dictionary', char)]);
      const json = await admin.put<Errors>(`admin/phrase/${phraseId}`, {
        phrase: 'Bonjour le monde.',
        dictionary: `bonjour —${char} hello`,
      });
      expect([json.status, json.body]).toEqual([422, refusal('dictionary', 'dictionary', char)]);
      const translated = await admin.put<Errors>(`admin/phrase/${phraseId}`, {
        phrase: 'Bonjour le monde.',
        dictionary: 'bonjour — hello',
        translations: { en: 'Hello world.', de: `Hallo${char} Welt.` },
      });
      const message = `The "de" translation contains ${named(char)}, which text cannot hold.`;
      expect([translated.status, translated.body]).toEqual([
        422,
        { message, errors: { translations: [message] } },
      ]);
    }
    expect(await count('phrases')).toBe(phrases);
    expect(await count('phrase_translations')).toBe(0);

    const kept = await admin.post<Phrase>(
      'admin/phrase',
      phraseForm({ phrase: 'Au\trevoir.', dictionary: 'au — to\r\nrevoir — to see again\r\n' }),
    );
    expect(kept.status).toBe(200);
    expect(kept.body.data).toEqual(
      expect.objectContaining({ phrase: 'Au\trevoir.', dictionary: 'au — to\nrevoir — to see again' }),
    );
    const edited = await admin.put<Phrase>(`admin/phrase/${kept.body.data.id}`, {
      phrase: 'Au revoir.',
      dictionary: 'revoir — to see again\r\nau — to',
      translations: { en: 'Goodbye.\r\nSee you.' },
    });
    expect(edited.status).toBe(200);
    const read = await admin.get<Phrase>(`admin/phrase/${kept.body.data.id}`);
    expect(read.body.data).toEqual(
      expect.objectContaining({
        dictionary: 'revoir — to see again\nau — to',
        translations: { en: 'Goodbye.\nSee you.' },
      }),
    );
  });

  it("refuses them in a member's name and an app password's name; a password takes them", async () => {
    const anonymous = new ApiClient(server);
    const users = await count('users');
    const email = `ctrl-${Date.now()}@example.org`;
    const password = 'pass\u0001word\u001b\u007f\uffff';
    const refused = await anonymous.post<Errors>('user/signup', {
      name: 'Mia\u001b[2J',
      email,
      password,
      repeat_password: password,
    });
    expect([refused.status, refused.body]).toEqual([422, refusal('name', 'name', '\u001b')]);
    expect(await count('users')).toBe(users);

    const signup = await anonymous.post('user/signup', {
      name: 'Mia',
      email,
      password,
      repeat_password: password,
    });
    expect(signup.status).toBe(200);
    const login = await anonymous.post<{ token: string }>('user/login', { email, password });
    expect(login.status).toBe(200);
    const wrong = await anonymous.post('user/login', { email, password: 'pass\u0002word\u001b\u007f\uffff' });
    expect([wrong.status, wrong.body]).toEqual([
      422,
      { message: 'These credentials do not match our records.' },
    ]);
    const changed = await anonymous
      .withToken(login.body.token)
      .post<{ token: string }>('user/change-password', {
        current_password: password,
        password: `${password}\u0002`,
        confirm_password: `${password}\u0002`,
      });
    expect(changed.status).toBe(200);
    const again = await anonymous.post('user/login', { email, password: `${password}\u0002` });
    expect(again.status).toBe(200);
    const member = anonymous.withToken(changed.body.token);

    for (const char of CHARS) {
      const profile = await member.put<Errors>('user/profile', { name: `Mi${char}a` });
      expect([profile.status, profile.body]).toEqual([422, refusal('name', 'name', char)]);
      const form = await member.put<Errors>('user/profile', new URLSearchParams({ name: `M${char}ia` }));
      expect([form.status, form.body]).toEqual([422, refusal('name', 'name', char)]);
      const app = await member.post<Errors>('user/app-passwords', { name: `KO${char}Reader` });
      expect([app.status, app.body]).toEqual([422, refusal('name', 'name', char)]);
    }
    expect((await member.get<{ data: { name: string } }>('user/profile')).body.data.name).toBe('Mia');
    expect((await member.get<{ data: unknown[] }>('user/app-passwords')).body.data).toEqual([]);
  });

  it('scores a dictation answer holding control characters as typed', async () => {
    const { client: member } = await newMember(server);
    const res = await member.post<{ data: { score: number; words: Array<{ typed: string | null }> } }>(
      'user/dictation',
      { phrase_id: phraseId, text: 'Bonjour\u0001 le\u001b monde\u007f.\uffff' },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.score).toEqual(expect.any(Number));
    expect(res.body.data.words.length).toBeGreaterThan(0);
  });
});
