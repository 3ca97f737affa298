import { DataSource } from 'typeorm';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { WORD_LENGTH } from '../content/catalogue/search-key';
import { sql } from '../platform/database/sql';
import { PageCache } from '../http/page-cache';
import { ApiClient, newAdmin } from './api-client';
import { BOOK_FIELDS, bookForm, form } from './fixtures';
import { startServer, type TestServer } from './harness';

interface BrowseBody {
  data: Array<{ book_code: string; title: string; language: string | null; cefr: string | null }>;
  meta: {
    total: number;
    page: number;
    per_page: number;
    facets: Record<'language' | 'cefr' | 'difficulty', Record<string, number>>;
  };
}

/** The books of the test, oldest first: [title, author, language, cefr, difficulty, hours, minutes]. */
const BOOKS: Array<[string, string, string, string, string, string, string]> = [
  ['El Niño y el Mar', 'Ana Ruiz', 'es', 'A2', 'Easy', '1', '10'],
  ['École de Nuit', 'Luc Marin', 'fr', 'B1', 'Medium', '2', '0'],
  ['Die Straße', 'Jonas Weber', 'de', 'B2', 'Hard', '0', '50'],
  ['Gatos', 'María Niño', 'es', 'A1', 'Easy', '0', '30'],
  ['100% Gato_Negro', 'Pablo Sanz', 'es', 'B1', 'Medium', '3', '0'],
  ['O Elétrico', 'Rita Sousa', 'PT-pt', '', 'Medium', '1', '0'],
  ['Unknown Tongue', 'Nobody', '', 'C2', 'Hard', '0', '5'],
];

describe('Browsing the catalogue (GET guest/books)', () => {
  let server: TestServer;
  let admin: ApiClient;
  let guest: ApiClient;

  const browse = (query: string) => guest.get<BrowseBody>(`guest/books${query}`);
  const titles = (body: BrowseBody) => body.data.map((book) => book.title);

  /** Saves a book with the given fields (the rest as in BOOK_FIELDS); answers its code and id. */
  const addBook = async (fields: Record<string, string>) => {
    const res = await admin.post<{ data: { id: number; book_code: string } }>('admin/book', bookForm(fields));
    if (res.status !== 200) throw new Error(res.text);
    return res.body.data;
  };

  /** The search words kept for one book, or for every book. */
  const wordCount = async (bookId?: number) => {
    const [row] = await sql<Array<{ n: number | string }>>(
      server.app.get(DataSource),
      `SELECT COUNT(*) AS n FROM book_words${bookId === undefined ? '' : ' WHERE book_id = ?'}`,
      bookId === undefined ? [] : [bookId],
    );
    return Number(row.n);
  };

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    guest = new ApiClient(server);
    for (const [title, author, language, cefr, difficulty, hours, minutes] of BOOKS) {
      const res = await admin.post(
        'admin/book',
        bookForm({ title, author, language, cefr, difficulty, hours, minutes }),
      );
      if (res.status !== 200) throw new Error(res.text);
    }
  });
  afterAll(() => server.close());

  it('lists every book newest first, with the totals and facets of the whole catalogue', async () => {
    const res = await browse('');
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(BOOKS.map((book) => book[0]).reverse());
    expect(res.body.meta).toEqual({
      total: 7,
      page: 1,
      per_page: 24,
      facets: {
        language: { es: 3, fr: 1, de: 1, 'pt-pt': 1, none: 1 },
        cefr: { A1: 1, A2: 1, B1: 2, B2: 1, C2: 1, none: 1 },
        difficulty: { Easy: 2, Medium: 3, Hard: 2 },
      },
    });
  });

  it('keeps a language in its canonical spelling and the level as given', async () => {
    const res = await browse('?lang=pt-pt');
    expect(res.body.data.map((book) => [book.language, book.cefr])).toEqual([['pt-PT', null]]);
  });

  it('combines filters, counting each facet with the other filters applied', async () => {
    const res = await browse('?lang=es&difficulty=Easy');
    expect(titles(res.body).sort()).toEqual(['El Niño y el Mar', 'Gatos']);
    expect(res.body.meta.total).toBe(2);
    // Language counts the Easy books of every language; difficulty counts the Spanish books of every level.
    expect(res.body.meta.facets.language).toEqual({ es: 2 });
    expect(res.body.meta.facets.difficulty).toEqual({ Easy: 2, Medium: 1 });
    expect(res.body.meta.facets.cefr).toEqual({ A1: 1, A2: 1 });
    // A facet's counts add up to the total when its own filter is off.
    const spanish = await browse('?lang=es');
    const sum = (facet: Record<string, number>) => Object.values(facet).reduce((a, b) => a + b, 0);
    expect(sum(spanish.body.meta.facets.cefr)).toBe(spanish.body.meta.total);
    expect(sum(spanish.body.meta.facets.difficulty)).toBe(spanish.body.meta.total);
  });

  it('filters books without a language or a level with "none"', async () => {
    expect(titles((await browse('?lang=none')).body)).toEqual(['Unknown Tongue']);
    expect(titles((await browse('?cefr=none')).body)).toEqual(['O Elétrico']);
    expect(titles((await browse('?cefr=b2')).body)).toEqual(['Die Straße']);
  });

  it('searches title, author and description by word starts, ignoring accents and case', async () => {
    expect(titles((await browse('?q=nino')).body)).toEqual(['El Niño y el Mar', 'Gatos']);
    expect(titles((await browse('?q=ECOLE')).body)).toEqual(['École de Nuit']);
    expect(titles((await browse('?q=strasse')).body)).toEqual(['Die Straße']);
    expect(titles((await browse('?q=eletr')).body)).toEqual(['O Elétrico']);
    // A word's start only: "ato" is inside "Gatos", not at a start.
    expect((await browse('?q=ato')).body.meta.total).toBe(0);
    // Every word must match somewhere.
    expect(titles((await browse('?q=gato%20pablo')).body)).toEqual(['100% Gato_Negro']);
  });

  it('filters, counts, sorts and pages a search as it does the whole catalogue', async () => {
    const easy = await browse('?q=gat&difficulty=Easy');
    expect(titles(easy.body)).toEqual(['Gatos']);
    expect(easy.body.meta).toEqual({
      total: 1,
      page: 1,
      per_page: 24,
      facets: { language: { es: 1 }, cefr: { A1: 1 }, difficulty: { Easy: 1, Medium: 1 } },
    });
    expect(titles((await browse('?q=gat&sort=title')).body)).toEqual(['100% Gato_Negro', 'Gatos']);
    expect(titles((await browse('?q=gat&sort=shortest')).body)).toEqual(['Gatos', '100% Gato_Negro']);
    expect(titles((await browse('?q=gat&per_page=1&page=2')).body)).toEqual(['Gatos']);
    expect((await browse('?q=gat&lang=fr')).body.meta).toEqual(
      expect.objectContaining({ total: 0, facets: { language: { es: 2 }, cefr: {}, difficulty: {} } }),
    );
  });

  it('ranks title matches before books that only mention the words elsewhere', async () => {
    // "Niño" is the title of one book and the author of the other, which is newer.
    expect(titles((await browse('?q=Ni%C3%B1o')).body)).toEqual(['El Niño y el Mar', 'Gatos']);
  });

  it('takes LIKE wildcards in the search literally', async () => {
    expect((await browse('?q=%25')).body.meta.total).toBe(0);
    expect((await browse('?q=_')).body.meta.total).toBe(0);
    expect((await browse('?q=g%25')).body.meta.total).toBe(2);
    expect(titles((await browse('?q=100%25')).body)).toEqual(['100% Gato_Negro']);
  });

  it('sorts by title and by length', async () => {
    const byTitle = titles((await browse('?sort=title')).body);
    expect(byTitle).toEqual([
      '100% Gato_Negro',
      'Die Straße',
      'École de Nuit',
      'El Niño y el Mar',
      'Gatos',
      'O Elétrico',
      'Unknown Tongue',
    ]);
    expect(titles((await browse('?sort=shortest&per_page=3')).body)).toEqual([
      'Unknown Tongue',
      'Gatos',
      'Die Straße',
    ]);
  });

  it('pages through the results, and answers an empty page past the end', async () => {
    const first = await browse('?sort=title&per_page=3');
    const third = await browse('?sort=title&per_page=3&page=3');
    expect(titles(first.body)).toHaveLength(3);
    expect(titles(third.body)).toEqual(['Unknown Tongue']);
    const past = await browse('?per_page=3&page=9');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta.total).toBe(7);
  });

  it.each([
    ['?page=0', 'page'],
    ['?page=abc', 'page'],
    ['?page=1.5', 'page'],
    ['?per_page=101', 'per_page'],
    ['?per_page=0', 'per_page'],
    ['?sort=random', 'sort'],
    ['?cefr=D1', 'cefr'],
    ['?difficulty=Trivial', 'difficulty'],
    ['?lang=not%20a%20language', 'lang'],
    [`?q=${'a'.repeat(201)}`, 'q'],
    ['?q=a%00b', 'q'],
    ['?lang=es&lang=fr', 'lang'],
  ])('refuses %s with a 422 naming %s', async (query, field) => {
    const res = await guest.get<{ message: string; errors: Record<string, string[]> }>(`guest/books${query}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.message).toBe(res.body.errors[field][0]);
  });

  it('accepts a 200-character search, a lone surrogate escape and an unknown language', async () => {
    expect((await browse(`?q=${'a'.repeat(200)}`)).status).toBe(200);
    const lone = await browse('?q=%ED%A0%80');
    expect(lone.status).toBe(200);
    expect(lone.body.meta.total).toBe(0);
    const unknown = await browse('?lang=xx');
    expect(unknown.status).toBe(200);
    expect(unknown.body.meta.total).toBe(0);
  });

  it('ignores parameters it does not know, and answers the same as without them', async () => {
    const plain = await browse('?lang=es');
    const extra = await browse('?utm_source=mail&lang=ES&x[]=1');
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
  });

  it('serves a filtered answer, not the unfiltered one kept in the cache', async () => {
    await browse('');
    const french = await browse('?lang=fr');
    expect(titles(french.body)).toEqual(['École de Nuit']);
  });

  it('shows a book saved by an administrator on the next request', async () => {
    expect((await browse('?lang=it')).body.meta.total).toBe(0);
    const res = await admin.post('admin/book', bookForm({ title: 'Una Estate', language: 'it', cefr: 'B1' }));
    expect(res.status).toBe(200);
    expect(titles((await browse('?lang=it')).body)).toEqual(['Una Estate']);
  });

  it('refuses an unknown CEFR level on the book form with a 422 on the field', async () => {
    const res = await admin.post<{ errors: Record<string, string[]> }>(
      'admin/book',
      bookForm({ title: 'Bad Level', cefr: 'B3' }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.cefr).toEqual(['The CEFR level must be one of A1, A2, B1, B2, C1 or C2.']);
  });

  it.each([
    ['fr-fr-fr', 'malformed'],
    ['xx', 'of no known language'],
    ['de-aaaaa-bbbbb-ccccc-ddddd-eeeee-fffff', 'longer than the column'],
  ])('refuses the language %s on the book form (%s) with a 422 on the field', async (language) => {
    const res = await admin.post<{ errors: Record<string, string[]> }>(
      'admin/book',
      bookForm({ title: 'Bad Language', language }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.language).toEqual([
      'The language must be a language code such as fr, es or pt-PT, of a language this server can name.',
    ]);
  });

  it('marks an empty answer no-store, and the page cache does not keep it', async () => {
    const cache = server.app.get(PageCache);
    cache.clear();
    for (const query of [
      'page=999',
      'per_page=3&page=4',
      'lang=sv',
      'lang=es&cefr=C1',
      'page=9&per_page=100',
    ]) {
      const empty = await guest.get<BrowseBody>(`guest/books?${query}`);
      expect([query, empty.status, empty.body.data, empty.headers.get('cache-control')]).toEqual([
        query,
        200,
        [],
        'no-store',
      ]);
    }
    expect(cache.size).toBe(0);
    // The last page is kept, as is any page with books.
    const last = await guest.get<BrowseBody>('guest/books?per_page=25&page=1');
    expect(last.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(cache.size).toBe(1);
  });

  it('keeps the answers of the usual page sizes only, so that per_page cannot multiply the entries', async () => {
    const cache = server.app.get(PageCache);
    cache.clear();
    for (let size = 1; size <= 100; size++) {
      const res = await guest.get<BrowseBody>(`guest/books?per_page=${size}`);
      expect([size, res.status, res.body.meta.per_page]).toEqual([size, 200, size]);
    }
    expect(cache.size).toBe(6);
  });

  it('fills the search columns and words of books kept before them at boot, leaving their updated_at', async () => {
    const db = server.app.get(DataSource);
    const before = (await browse('?lang=de')).body.data[0] as unknown as { updated_at: string };
    const words = await wordCount();
    expect(words).toBeGreaterThan(0);
    await db.query(`UPDATE books SET title_key = '', search_text = ''`);
    await db.query(`DELETE FROM book_words`);
    expect((await browse('?q=strasse')).body.meta.total).toBe(0);
    await server.app.get(BooksRepository).onApplicationBootstrap();
    server.app.get(PageCache).clear();
    expect(titles((await browse('?q=strasse')).body)).toEqual(['Die Straße']);
    expect(titles((await browse('?q=nino')).body)).toEqual(['El Niño y el Mar', 'Gatos']);
    expect(await wordCount()).toBe(words);
    const after = (await browse('?lang=de')).body.data[0] as unknown as { updated_at: string };
    expect(after.updated_at).toBe(before.updated_at);
    // A second boot finds nothing left to fill.
    await server.app.get(BooksRepository).onApplicationBootstrap();
    expect(await wordCount()).toBe(words);
  });

  it('keeps guest/list-book to the newest books, in its old shape', async () => {
    const res = await guest.get<{ data: Array<{ title: string }> }>('guest/list-book');
    expect(res.status).toBe(200);
    expect(res.body.data[0].title).toBe('Una Estate');
    expect(res.body.data.length).toBeLessThanOrEqual(100);
  });

  it('searches the narrator too', async () => {
    await addBook({ title: 'La Voz', narrated_by: 'Zoë Quintanilla' });
    expect(titles((await browse('?q=quintan')).body)).toEqual(['La Voz']);
    expect(titles((await browse('?q=zoe%20quintanilla')).body)).toEqual(['La Voz']);
  });

  it('finds an edited book by its new words, and no longer by its old ones', async () => {
    const { book_code: code } = await addBook({ title: 'Libro Viejo', description: 'Un cuento marinero.' });
    expect(titles((await browse('?q=marinero')).body)).toEqual(['Libro Viejo']);
    const res = await admin.put(
      `admin/book/${code}`,
      form({ ...BOOK_FIELDS, title: 'Libro Nuevo', description: 'Una historia montañesa.' }),
    );
    expect(res.status).toBe(200);
    expect((await browse('?q=marinero')).body.meta.total).toBe(0);
    expect((await browse('?q=viejo')).body.meta.total).toBe(0);
    expect(titles((await browse('?q=montanes')).body)).toEqual(['Libro Nuevo']);
    expect(titles((await browse('?q=libro%20nuevo')).body)).toEqual(['Libro Nuevo']);
  });

  it('keeps no words of a deleted book', async () => {
    const { id, book_code: code } = await addBook({ title: 'Libro Efímero' });
    expect(await wordCount(id)).toBeGreaterThan(0);
    expect((await admin.delete(`admin/book/${code}`)).status).toBe(200);
    expect(await wordCount(id)).toBe(0);
    expect((await browse('?q=efimero')).body.meta.total).toBe(0);
  });

  it('finds a word longer than the words kept by its start, however long the term', async () => {
    const long = `Pneumono${'ultramicroscopicsilicovolcano'.repeat(3)}coniosis`;
    expect(long.length).toBeGreaterThan(WORD_LENGTH + 20);
    await addBook({ title: `El ${long}` });
    for (const term of [long, long.slice(0, WORD_LENGTH + 10), long.slice(0, WORD_LENGTH), 'pneumonoultra'])
      expect(titles((await browse(`?q=${term}`)).body)).toEqual([`El ${long}`]);
    // Beyond the first characters kept, a term is compared on those only.
    expect(titles((await browse(`?q=${long.slice(0, WORD_LENGTH)}zzz`)).body)).toEqual([`El ${long}`]);
    expect((await browse(`?q=${long.slice(0, WORD_LENGTH - 1)}z`)).body.meta.total).toBe(0);
  });
});
