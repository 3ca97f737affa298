import { DataSource } from 'typeorm';
import { ChapterWordsRepository } from '../content/catalogue/repository/chapter-words.repository';
import { sql } from '../platform/database/sql';
import { WordForm, WordFormSet } from '../content/word-forms/word-form.entity';
import { WordFormsService } from '../content/word-forms/word-forms.service';
import { CoverageRefresher } from '../learning/word-status/coverage-refresher';
import { ApiClient, newAdmin, newMember } from './api-client';
import { bookForm, fixture, form } from './fixtures';
import { startServer, type TestServer } from './harness';

/**
 * Word status and coverage (docs/word-status.md): statuses kept per language and key (a form's one lemma),
 * "Mark the rest as known" and its undo, the reader's marks of a chapter, and the coverage of books, after
 * marking words, after an edited phrase and after a deleted book.
 */

type Status = { lang: string; word: string; lemma: string | null; status: string };
type Coverage = Record<string, { known_share: number; unknown_words: number }>;
type Refusal = { message: string; errors?: Record<string, string[]> };

describe('Word status and coverage', () => {
  let server: TestServer;
  let admin: ApiClient;
  let db: DataSource;
  let code: string;
  let other: string;
  /** Phrase 1 of the free chapter: "Los perros ven las casas." */
  let phraseId: number;

  beforeAll(async () => {
    server = await startServer();
    db = server.app.get(DataSource);
    admin = (await newAdmin(server)).client;
    // Spanish word forms first: the counts take their keys when the phrases are written.
    await db.getRepository(WordFormSet).insert({
      lang: 'es',
      origin: 'hunspell',
      generation: 1,
      forms: 4,
      lemmas: 3,
      updatedAt: new Date(),
    });
    await db.getRepository(WordForm).insert(
      [
        ['perros', 'perro'],
        ['perro', 'perro'],
        ['casas', 'casa'],
        ['casas', 'casar'],
      ].map(([f, lemma]) => ({ lang: 'es', origin: 'hunspell', generation: 1, form: f, lemma })),
    );
    const book = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ language: 'es', title: 'Los perros' }),
    );
    code = book.body.data.book_code;
    const texts = [['Los perros ven las casas.', 'El perro come.'], ['Un perro.']];
    for (const [i, phrases] of texts.entries()) {
      const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: `Capítulo ${i + 1}`,
        chapter_no: i + 1,
        book_id: book.body.data.id,
      });
      for (const phrase of phrases) {
        const res = await admin.post<{ data: { id: number } }>(
          'admin/phrase',
          form({
            chapter_id: chapter.body.data.id,
            phrase,
            dictionary: 'ven: they see\ncome: eats',
            line_audio: [fixture('clip.mp3'), 'clip.mp3'],
          }),
        );
        phraseId ??= res.body.data.id;
      }
    }
    const second = await admin.post<{ data: { id: number; book_code: string } }>(
      'admin/book',
      bookForm({ language: 'es', title: 'Otro libro' }),
    );
    other = second.body.data.book_code;
    const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
      title: 'Uno',
      chapter_no: 1,
      book_id: second.body.data.id,
    });
    await admin.post(
      'admin/phrase',
      form({
        chapter_id: chapter.body.data.id,
        phrase: 'Las casas, las casas.',
        dictionary: 'casas: houses',
        line_audio: [fixture('clip.mp3'), 'clip.mp3'],
      }),
    );
  });
  afterAll(() => server.close());

  const coverage = async (client: ApiClient, codes = [code, other]) =>
    (await client.get<{ data: Coverage }>(`user/coverage?books=${codes.join(',')}`)).body.data;
  const set = (client: ApiClient, body: Record<string, unknown>) =>
    client.put<{ data: Status }>('user/word-status', body);
  const marks = async (client: ApiClient, chapter = 1) =>
    (
      await client.get<{ data: { lang: string; words: Record<string, string> } }>(
        `user/word-status/chapter?book_code=${code}&chapter_no=${chapter}`,
      )
    ).body.data;

  it('keeps a known word under its one lemma, so every form of it counts, and never a second lemma’s', async () => {
    const { client } = await newMember(server);
    // Running words: 8 in chapter 1, 2 in chapter 2; distinct keys: los, perro, ven, las, casas, el, come, un.
    expect(await coverage(client)).toEqual({
      [code]: { known_share: 0, unknown_words: 8 },
      [other]: { known_share: 0, unknown_words: 2 },
    });

    const perros = await set(client, { lang: 'es', word: 'Perros', status: 'known' });
    expect(perros.status).toBe(200);
    expect(perros.body.data).toEqual({ lang: 'es', word: 'perros', lemma: 'perro', status: 'known' });
    // perros, perro (chapter 1) and perro (chapter 2): 3 of 10.
    expect((await coverage(client))[code]).toEqual({ known_share: 0.3, unknown_words: 7 });

    // "casas" has two lemmas: known as itself, and casa or casar stay unknown.
    const casas = await set(client, { lang: 'es-MX', word: 'casas', status: 'known' });
    expect(casas.body.data).toEqual({ lang: 'es', word: 'casas', lemma: null, status: 'known' });
    expect(await coverage(client)).toEqual({
      [code]: { known_share: 0.4, unknown_words: 6 },
      [other]: { known_share: 0.5, unknown_words: 1 },
    });
    expect((await marks(client)).words).toEqual({ perros: 'known', perro: 'known', casas: 'known' });

    // Undone: "new" again, by any form of the lemma.
    const undone = await set(client, { lang: 'es', word: 'perro', status: 'new' });
    expect(undone.body.data).toEqual({ lang: 'es', word: 'perro', lemma: 'perro', status: 'new' });
    expect((await coverage(client))[code]).toEqual({ known_share: 0.1, unknown_words: 7 });

    // Another member's statuses are their own.
    expect((await coverage((await newMember(server)).client))[code].known_share).toBe(0);
  });

  it('lets the later of two settings win when one was made offline and sent later', async () => {
    const { client } = await newMember(server);
    const hour = 3_600_000;
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    expect(
      (await set(client, { lang: 'es', word: 'come', status: 'known', at: ago(hour) })).body.data.status,
    ).toBe('known');
    // An older "new" (queued on another device) is not applied: the answer says it is still known.
    expect(
      (await set(client, { lang: 'es', word: 'come', status: 'new', at: ago(2 * hour) })).body.data.status,
    ).toBe('known');
    expect((await set(client, { lang: 'es', word: 'come', status: 'new' })).body.data.status).toBe('new');
    expect(
      (await set(client, { lang: 'es', word: 'come', status: 'known', at: ago(hour) })).body.data.status,
    ).toBe('new');
    const old = await set(client, { lang: 'es', word: 'come', status: 'known', at: ago(40 * 24 * hour) });
    expect(old.status).toBe(422);
    expect(Object.keys((old.body as unknown as Refusal).errors!)).toEqual(['at']);
  });

  it('marks the rest of a chapter known, leaving saved words in learning, and undoes it', async () => {
    const { client } = await newMember(server);
    await set(client, { lang: 'es', word: 'los', status: 'known' });
    // "ven" saved from the glossary: in learning, so not marked.
    expect((await client.post('user/words', { phrase_id: phraseId, term: 'ven' })).status).toBe(200);
    expect((await marks(client)).words).toEqual({ los: 'known', ven: 'learning' });

    const marked = await client.post<{ data: { id: number; changed: number } }>('user/word-status/chapter', {
      book_code: code,
      chapter_no: 1,
    });
    expect(marked.status).toBe(200);
    // perro (perros and perro), las, casas, el, come: 5 keys.
    expect(marked.body.data.changed).toBe(5);
    expect((await marks(client)).words).toEqual({
      los: 'known',
      perros: 'known',
      perro: 'known',
      las: 'known',
      casas: 'known',
      el: 'known',
      come: 'known',
      ven: 'learning',
    });
    expect((await coverage(client))[code]).toEqual({ known_share: 0.8, unknown_words: 2 });
    // The dashboard's line: 6 Spanish words known today, none before.
    const stats = await client.get<{
      data: { days: unknown[]; known_words: Array<{ lang: string; known: number[] }> };
    }>('user/stats');
    expect(stats.body.data.known_words).toEqual([
      { lang: 'es', known: [...Array.from({ length: stats.body.data.days.length - 1 }, () => 0), 6] },
    ]);
    // Nothing left to mark: no batch.
    expect((await client.post('user/word-status/chapter', { book_code: code, chapter_no: 1 })).body).toEqual({
      data: { id: null, changed: 0 },
    });

    // Another member cannot undo it; the member can, once.
    const stranger = (await newMember(server)).client;
    expect((await stranger.delete(`user/word-status/chapter/${marked.body.data.id}`)).status).toBe(404);
    const undo = await client.delete<{ data: { changed: number } }>(
      `user/word-status/chapter/${marked.body.data.id}`,
    );
    expect(undo.body.data).toEqual({ changed: 5 });
    expect((await marks(client)).words).toEqual({ los: 'known', ven: 'learning' });
    expect((await client.delete(`user/word-status/chapter/${marked.body.data.id}`)).status).toBe(404);
  });

  it('answers from its precomputed coverage, kept exact by each status change without computing it again', async () => {
    const { client, id } = await newMember(server);
    const refresher = server.app.get(CoverageRefresher);
    const live = async () => {
      const books = await sql<Array<{ id: number | string; book_code: string }>>(
        db,
        'SELECT id, book_code FROM books WHERE book_code IN (?, ?)',
        [code, other],
      );
      const counts = await server.app.get(ChapterWordsRepository).coverage(
        id,
        'es',
        books.map((book) => Number(book.id)),
      );
      return Object.fromEntries(
        books.map((book) => {
          const c = counts.get(Number(book.id))!;
          return [
            book.book_code,
            { known_share: Math.round((c.known / c.running) * 10_000) / 10_000, unknown_words: c.unknown },
          ];
        }),
      );
    };
    const stored = async () =>
      (
        await db.query<Array<{ n: number | string }>>(
          'SELECT SUM(known) AS n FROM book_coverage WHERE user_id = ' + Number(id),
        )
      )[0].n;
    // The first request is computed when asked, and asks for its precomputation.
    expect((await coverage(client))[code]).toEqual({ known_share: 0, unknown_words: 8 });
    await refresher.settled();
    expect(await refresher.state(db, id, 'es')).toBe('fresh');
    const [{ computed_at: computed }] = await db.query<Array<{ computed_at: unknown }>>(
      `SELECT computed_at FROM coverage_runs WHERE user_id = ${Number(id)}`,
    );

    await set(client, { lang: 'es', word: 'casas', status: 'known' });
    expect(await coverage(client)).toEqual({
      [code]: { known_share: 0.1, unknown_words: 7 },
      [other]: { known_share: 0.5, unknown_words: 1 },
    });
    // Read from book_coverage: 1 known in this book, 2 in the other.
    expect(Number(await stored())).toBe(3);
    const marked = await client.post<{ data: { id: number; changed: number } }>('user/word-status/chapter', {
      book_code: code,
      chapter_no: 1,
    });
    expect(marked.body.data.changed).toBe(6);
    // Every word but "un" (perro's key covers "Un perro." too).
    expect(await coverage(client)).toEqual(await live());
    expect((await coverage(client))[code]).toEqual({ known_share: 0.9, unknown_words: 1 });
    await set(client, { lang: 'es', word: 'casas', status: 'new' });
    await set(client, { lang: 'es', word: 'casas', status: 'new' });
    expect(await coverage(client)).toEqual(await live());
    expect((await coverage(client))[other]).toEqual({ known_share: 0.5, unknown_words: 1 });
    await client.delete(`user/word-status/chapter/${marked.body.data.id}`);
    expect(await coverage(client)).toEqual(await live());
    expect((await coverage(client))[code]).toEqual({ known_share: 0, unknown_words: 8 });
    expect(Number(await stored())).toBe(0);
    // None of it computed the member's coverage again: each change shifted it.
    await refresher.settled();
    const [{ computed_at: after }] = await db.query<Array<{ computed_at: unknown }>>(
      `SELECT computed_at FROM coverage_runs WHERE user_id = ${Number(id)}`,
    );
    expect(String(after)).toBe(String(computed));
  });

  it('sorts a member’s books nearest to 95% known first (Best for me), following their statuses', async () => {
    const { client } = await newMember(server);
    type Books = {
      data: Array<{ book_code: string; known_share: number }>;
      meta: { coverage_as_of: string | null };
    };
    const best = async () => {
      await server.app.get(CoverageRefresher).settled();
      const res = await client.get<Books>('user/books?lang=es&sort=coverage');
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      return res.body;
    };
    await set(client, { lang: 'es', word: 'casas', status: 'known' });
    // This book: 1 of 10 known (0.85 from 95%); the other: 2 of 4 (0.45 from it).
    const first = await best();
    expect(first.data.map((book) => [book.book_code, book.known_share])).toEqual([
      [other, 0.5],
      [code, 0.1],
    ]);
    expect(Date.parse(first.meta.coverage_as_of!)).not.toBeNaN();
    for (const word of ['perros', 'los', 'ven', 'el'])
      await set(client, { lang: 'es', word, status: 'known' });
    // Now 7 of 10 (0.25 from 95%): first.
    expect((await best()).data.map((book) => [book.book_code, book.known_share])).toEqual([
      [code, 0.7],
      [other, 0.5],
    ]);
    // Other sorts keep their order, each book with its share; a search cannot be sorted so.
    const newest = await client.get<Books>('user/books?lang=es');
    expect(newest.body.data.map((book) => book.book_code)).toEqual([other, code]);
    expect(newest.body.meta.coverage_as_of).toBeNull();
    const search = await client.get<Refusal>('user/books?sort=coverage&q=perros');
    expect([search.status, Object.keys(search.body.errors ?? {})]).toEqual([422, ['sort']]);
    expect((await new ApiClient(server).get('guest/books?sort=coverage')).status).toBe(422);
    expect((await new ApiClient(server).get('user/books?sort=coverage')).status).toBe(401);
  });

  it('follows an edited phrase, new word forms and a deleted book', async () => {
    const { client } = await newMember(server);
    const marker = (await newMember(server)).client;
    await set(client, { lang: 'es', word: 'gatos', status: 'known' });
    expect((await coverage(client))[code].known_share).toBe(0);
    const edited = await admin.post(
      `admin/phrase/${phraseId}?_method=put`,
      form({ phrase: 'Los gatos ven las casas.', dictionary: 'ven: they see' }),
    );
    expect(edited.status).toBe(200);
    // "perros" left, "gatos" came: 1 of 10 known, and perro (still in "El perro come.") unknown.
    expect((await coverage(client))[code]).toEqual({ known_share: 0.1, unknown_words: 8 });
    // Another member marks the rest of the chapter ("gatos" with it), to undo it after the keys change.
    const marked = await marker.post<{ data: { id: number } }>('user/word-status/chapter', {
      book_code: code,
      chapter_no: 1,
    });

    // New word forms for Spanish: the books are counted again, "gatos" now under its lemma gato.
    const list = new FormData();
    list.append('files', new Blob(['gatos\tgato\n']), 'irregular.tsv');
    list.set('lang', 'es');
    expect((await admin.post('admin/word-forms', list)).status).toBeLessThan(300);
    await server.app.get(WordFormsService).settled();
    // The member's "gatos" is carried to its new key: still known, and "gato" with it.
    expect((await coverage(client))[code]).toEqual({ known_share: 0.1, unknown_words: 8 });
    await server.app.get(CoverageRefresher).settled();
    expect((await coverage(client))[code]).toEqual({ known_share: 0.1, unknown_words: 8 });
    expect((await marks(client)).words.gatos).toBe('known');
    // The marking's undo takes the carried status back too: "gatos" is new again under its new key.
    expect((await marks(marker)).words.gatos).toBe('known');
    expect((await marker.delete(`user/word-status/chapter/${marked.body.data.id}`)).status).toBe(200);
    expect((await marks(marker)).words).toEqual({});
    expect((await coverage(marker))[code]).toEqual({ known_share: 0, unknown_words: 9 });

    const kept = (await coverage(client))[code];
    expect((await admin.delete(`admin/book/${other}`)).status).toBe(200);
    expect(await coverage(client)).toEqual({ [code]: kept });
    await server.app.get(CoverageRefresher).settled();
    const best = await client.get<{ data: Array<{ book_code: string }> }>('user/books?lang=es&sort=coverage');
    expect(best.body.data.map((book) => book.book_code)).toEqual([code]);
    const [{ n }] = await db.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM chapter_words cw WHERE NOT EXISTS (SELECT 1 FROM books b WHERE b.id = cw.book_id)',
    );
    expect(Number(n)).toBe(0);
  });

  it('keeps its precomputed coverage true through racing changes, a book changing language and a chapter moved', async () => {
    const { client, id } = await newMember(server);
    const refresher = server.app.get(CoverageRefresher);
    const repository = server.app.get(ChapterWordsRepository);
    const book = async (language: string, phrase: string) => {
      const created = await admin.post<{ data: { id: number; book_code: string } }>(
        'admin/book',
        bookForm({ language, title: `Libro ${phrase}` }),
      );
      const chapter = await admin.post<{ data: { id: number } }>('admin/chapter', {
        title: 'Uno',
        chapter_no: 1,
        book_id: created.body.data.id,
      });
      const written = await admin.post(
        'admin/phrase',
        form({
          chapter_id: chapter.body.data.id,
          phrase,
          dictionary: 'hola: hello',
          line_audio: [fixture('clip.mp3'), 'clip.mp3'],
        }),
      );
      expect(written.status).toBe(200);
      return { ...created.body.data, chapter: chapter.body.data.id };
    };
    const spanish = await book('es', 'Hola hola mundo.');
    const french = await book('fr', 'Bonjour le monde.');
    // Read precomputed (after a settle) against computed when asked: the same, book by book.
    const agree = async (lang: string, target: { id: number; book_code: string }) => {
      await refresher.settled();
      expect(await refresher.state(db, id, lang)).toBe('fresh');
      const stored = await repository.storedCoverage(id, lang, [target.id]);
      expect(stored.get(target.id)).toEqual(
        (await repository.coverage(id, lang, [target.id])).get(target.id),
      );
      return stored.get(target.id);
    };
    await coverage(client, [spanish.book_code, french.book_code]);
    await set(client, { lang: 'fr', word: 'bonjour', status: 'known' });
    await refresher.settled();

    // Taps racing on one word, known and new in turn: whatever order they commit in, no shift is lost or
    // made twice.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        set(client, { lang: 'es', word: 'hola', status: i % 2 ? 'known' : 'new' }),
      ),
    );
    expect((await agree('es', spanish))?.running).toBe(3);

    // The Spanish book turns French: its French coverage is read from now on, and its Spanish row goes.
    const turned = await admin.post(
      `admin/book/${spanish.book_code}?_method=put`,
      bookForm({
        language: 'fr',
        title: 'Libro Hola hola mundo.',
        book_image: undefined,
        sample_audio: undefined,
      }),
    );
    expect(turned.status).toBe(200);
    expect(await agree('fr', spanish)).toEqual({ running: 3, known: 0, unknown: 2 });
    await refresher.settled();
    const rows = await sql<Array<{ lang: string }>>(
      db,
      'SELECT lang FROM book_coverage WHERE user_id = ? AND book_id = ?',
      [id, spanish.id],
    );
    expect(rows.map((row) => String(row.lang))).toEqual(['fr']);

    // The French book's chapter moves into the other book: both books' coverage follows.
    const moved = await admin.put(
      `admin/chapter/${french.chapter}`,
      new URLSearchParams({ book_id: String(spanish.id), title: 'Dos', chapter_no: '2' }),
    );
    expect(moved.status).toBe(200);
    expect(await agree('fr', spanish)).toEqual({ running: 6, known: 1, unknown: 4 });
    expect((await repository.storedCoverage(id, 'fr', [french.id])).get(french.id)).toBeUndefined();

    // Into a book of another language: the book it left (French) follows as well as the one it joined.
    const third = await book('es', 'Amigo mío.');
    await agree('es', third);
    const across = await admin.put(
      `admin/chapter/${french.chapter}`,
      new URLSearchParams({ book_id: String(third.id), title: 'Dos', chapter_no: '2' }),
    );
    expect(across.status).toBe(200);
    expect(await agree('fr', spanish)).toEqual({ running: 3, known: 0, unknown: 2 });
    // "Bonjour le monde." now counts in Spanish, where "bonjour" is not known.
    expect(await agree('es', third)).toEqual({ running: 5, known: 0, unknown: 5 });
    for (const { book_code } of [spanish, french, third]) await admin.delete(`admin/book/${book_code}`);
  });

  it('refuses a chapter the member may not read, and bad input, by field; answers members only, privately', async () => {
    const { client } = await newMember(server);
    const locked = await client.post<Refusal>('user/word-status/chapter', { book_code: code, chapter_no: 2 });
    expect(locked.status).toBe(403);
    expect((await client.get(`user/word-status/chapter?book_code=${code}&chapter_no=2`)).status).toBe(403);
    expect((await client.post('user/word-status/chapter', { book_code: 'nope', chapter_no: 1 })).status).toBe(
      404,
    );
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ lang: 'xx-!!', word: 'casa', status: 'known' }, 'lang'],
      [{ word: 'casa', status: 'known' }, 'lang'],
      [{ lang: 'es', word: '1999', status: 'known' }, 'word'],
      [{ lang: 'es', word: 'x'.repeat(101), status: 'known' }, 'word'],
      [{ lang: 'es', word: 'casa', status: 'maybe' }, 'status'],
      [{ lang: 'es', word: 'casa', status: 'known', at: 'yesterday' }, 'at'],
    ];
    for (const [body, field] of refusals) {
      const res = await set(client, body);
      expect([body, res.status, Object.keys((res.body as unknown as Refusal).errors ?? {})]).toEqual([
        body,
        422,
        [field],
      ]);
    }
    const tooMany = Array.from({ length: 101 }, (_, i) => `b${i}`).join(',');
    for (const query of ['', `books=${tooMany}`, 'books=,']) {
      const res = await client.get<Refusal>(`user/coverage?${query}`);
      expect([query, res.status, Object.keys(res.body.errors ?? {})]).toEqual([query, 422, ['books']]);
    }
    const answer = await client.get(`user/coverage?books=${code}`);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');

    const visitor = new ApiClient(server);
    expect((await visitor.get(`user/coverage?books=${code}`)).status).toBe(401);
    expect(
      (await visitor.put('user/word-status', { lang: 'es', word: 'casa', status: 'known' })).status,
    ).toBe(401);
  });
});
