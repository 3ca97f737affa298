import type { Book } from '../content/catalogue/entities/book.entity';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { ApiClient, newAdmin, newMember } from './api-client';
import { bookForm } from './fixtures';
import { startServer, type TestServer } from './harness';

interface ListBody {
  data: Array<{ id: number; book_code: string; title: string; language: string | null; cefr: string | null }>;
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
const NEWEST_FIRST = BOOKS.map((book) => book[0]).reverse();

/**
 * GET admin/book at scale (issue 21): the Book List's pages, filters and search, read by the same parser
 * as GET guest/books, in the original `{ data }` shape with `meta` beside it.
 */
describe('The admin Book List (GET admin/book)', () => {
  let server: TestServer;
  let admin: ApiClient;

  const list = (query = '') => admin.get<ListBody>(`admin/book${query}`);
  const titles = (body: ListBody) => body.data.map((book) => book.title);

  beforeAll(async () => {
    server = await startServer();
    admin = (await newAdmin(server)).client;
    for (const [title, author, language, cefr, difficulty, hours, minutes] of BOOKS) {
      const res = await admin.post(
        'admin/book',
        bookForm({ title, author, language, cefr, difficulty, hours, minutes }),
      );
      if (res.status !== 200) throw new Error(res.text);
    }
  });
  afterAll(() => server.close());

  it('answers 401 without a token and 403 to a member, with parameters too', async () => {
    const member = (await newMember(server)).client;
    for (const query of ['', '?q=gato&page=1']) {
      expect((await new ApiClient(server).get(`admin/book${query}`)).status).toBe(401);
      expect((await member.get(`admin/book${query}`)).status).toBe(403);
    }
  });

  it('keeps its shape: every book as GET admin/book/{code} answers it, newest first, with meta', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(titles(res.body)).toEqual(NEWEST_FIRST);
    const one = await admin.get<{ data: ListBody['data'][number] }>(
      `admin/book/${res.body.data[0].book_code}`,
    );
    expect(res.body.data[0]).toEqual(one.body.data);
    expect(res.body.meta).toEqual({
      total: 7,
      page: 1,
      per_page: 50,
      facets: {
        language: { es: 3, fr: 1, de: 1, 'pt-pt': 1, none: 1 },
        cefr: { A1: 1, A2: 1, B1: 2, B2: 1, C2: 1, none: 1 },
        difficulty: { Easy: 2, Medium: 3, Hard: 2 },
      },
    });
  });

  it('filters by language, level and difficulty, alone and combined', async () => {
    expect(titles((await list('?lang=es')).body)).toEqual(['100% Gato_Negro', 'Gatos', 'El Niño y el Mar']);
    expect(titles((await list('?lang=PT-PT')).body)).toEqual(['O Elétrico']);
    expect(titles((await list('?lang=none')).body)).toEqual(['Unknown Tongue']);
    expect(titles((await list('?cefr=b1')).body)).toEqual(['100% Gato_Negro', 'École de Nuit']);
    expect(titles((await list('?cefr=none')).body)).toEqual(['O Elétrico']);
    expect(titles((await list('?difficulty=hard')).body)).toEqual(['Unknown Tongue', 'Die Straße']);
    const combined = await list('?lang=es&cefr=B1&difficulty=Medium');
    expect(titles(combined.body)).toEqual(['100% Gato_Negro']);
    expect(combined.body.meta.total).toBe(1);
    // Each facet counts the books matching the other filters, as on GET guest/books.
    expect(combined.body.meta.facets.language).toEqual({ es: 1, fr: 1 });
  });

  it('searches as the public catalogue does: word starts, accents and case ignored, titles first', async () => {
    expect(titles((await list('?q=nino')).body)).toEqual(['El Niño y el Mar', 'Gatos']);
    expect(titles((await list('?q=ECOLE')).body)).toEqual(['École de Nuit']);
    expect(titles((await list('?q=strasse')).body)).toEqual(['Die Straße']);
    expect(titles((await list('?q=gato%20pablo')).body)).toEqual(['100% Gato_Negro']);
    expect(titles((await list('?q=100%25')).body)).toEqual(['100% Gato_Negro']);
    expect((await list('?q=_')).body.meta.total).toBe(0);
    expect(titles((await list('?q=gat&lang=es&sort=title')).body)).toEqual(['100% Gato_Negro', 'Gatos']);
  });

  it('answers a filter or a search that finds nothing with an empty page, not a 404', async () => {
    for (const query of ['?q=zebra', '?lang=it', '?cefr=C1&lang=es']) {
      const res = await list(query);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta.total).toBe(0);
    }
  });

  it('sorts by title and by length', async () => {
    expect(titles((await list('?sort=title&per_page=3')).body)).toEqual([
      '100% Gato_Negro',
      'Die Straße',
      'École de Nuit',
    ]);
    expect(titles((await list('?sort=shortest&per_page=3')).body)).toEqual([
      'Unknown Tongue',
      'Gatos',
      'Die Straße',
    ]);
  });

  it('pages through the books, and answers an empty page past the end', async () => {
    const pages = await Promise.all([1, 2, 3].map((page) => list(`?per_page=3&page=${page}`)));
    expect(pages.map((res) => titles(res.body))).toEqual([
      NEWEST_FIRST.slice(0, 3),
      NEWEST_FIRST.slice(3, 6),
      NEWEST_FIRST.slice(6),
    ]);
    expect(pages.map((res) => [res.body.meta.page, res.body.meta.per_page, res.body.meta.total])).toEqual([
      [1, 3, 7],
      [2, 3, 7],
      [3, 3, 7],
    ]);
    const past = await list('?per_page=3&page=9');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toEqual(expect.objectContaining({ total: 7, page: 9, per_page: 3 }));
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
    ['?page=1&page=2', 'page'],
  ])('refuses %s with the 422 of GET guest/books, naming %s', async (query, field) => {
    const res = await admin.get<{ message: string; errors: Record<string, string[]> }>(`admin/book${query}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(res.body.message).toBe(res.body.errors[field][0]);
    const guest = await new ApiClient(server).get(`guest/books${query}`);
    expect(res.body).toEqual(guest.body);
  });

  it('accepts a 200-character search and ignores parameters it does not know', async () => {
    expect((await list(`?q=${'a'.repeat(200)}`)).status).toBe(200);
    expect((await list('?utm_source=mail&lang=ES')).body).toEqual((await list('?lang=es')).body);
  });

  it('describes its parameters and its bounded default in the OpenAPI document', async () => {
    type Parameter = { name: string; in: string; required: boolean; description?: string };
    const document = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { summary: string; description?: string; parameters: Parameter[] }>
      >;
    };
    const admin = document.paths['/api/v1/admin/book'].get;
    const guest = document.paths['/api/v1/guest/books'].get;
    const names = (op: { parameters: Parameter[] }) => op.parameters.map((p) => [p.name, p.in, p.required]);
    expect(names(admin)).toEqual(names(guest));
    expect(names(admin).map(([name]) => name)).toEqual([
      'lang',
      'cefr',
      'difficulty',
      'q',
      'sort',
      'page',
      'per_page',
    ]);
    expect(admin.parameters.find((p) => p.name === 'per_page')?.description).toBe('1 to 100; 50 by default.');
    expect(guest.parameters.find((p) => p.name === 'per_page')?.description).toBe('1 to 100; 24 by default.');
    expect(admin.summary).toMatch(/50 by default\), newest first/);
    const listBook = document.paths['/api/v1/guest/list-book'].get as {
      summary: string;
      description: string;
    };
    expect(listBook.summary).toBe('The newest books, at most 100');
    expect(listBook.description).toContain('bounded to the newest 100 books');
  });

  it('is bounded without parameters: the newest 50 of many, and at most 100 a page', async () => {
    // Fifty more books, written through the catalogue's owner with the first book's files (as the bench does).
    const repository = server.app.get(BooksRepository);
    const model = (await repository.byCode((await list('?per_page=1')).body.data[0].book_code))!;
    for (let n = 1; n <= 50; n++) {
      await repository.create({
        ...copyOf(model),
        bookCode: `copy-${n}`,
        title: `Copy ${String(n).padStart(2, '0')}`,
      });
    }
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.meta).toEqual(expect.objectContaining({ total: 57, page: 1, per_page: 50 }));
    expect(first.body.data[0].title).toBe('Copy 50');
    expect(first.body.data[49].title).toBe('Copy 01');
    expect(titles((await list('?page=2')).body)).toEqual(NEWEST_FIRST);
    expect((await list('?per_page=100')).body.data).toHaveLength(57);
    expect((await list('?lang=en&per_page=5&page=10')).body.data.map((book) => book.cefr)).toEqual([
      'A1',
      'A1',
      'A1',
      'A1',
      'A1',
    ]);
  });

  it('keeps guest/list-book, in its old shape, to the newest 100 of more', async () => {
    const repository = server.app.get(BooksRepository);
    const model = (await repository.byCode('copy-1'))!;
    for (let n = 51; n <= 100; n++)
      await repository.create({ ...copyOf(model), bookCode: `copy-${n}`, title: `Copy ${n}` });
    expect((await list()).body.meta.total).toBe(107);
    const res = await new ApiClient(server).get<{ data: Array<{ title: string }> }>('guest/list-book');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[0].title).toBe('Copy 100');
    expect(res.body.data[99].title).toBe('Copy 01');
  });
});

/** A book's fields but its code and title, for copies sharing its files. */
const copyOf = (model: Book) => ({
  author: model.author,
  narratedBy: model.narratedBy,
  description: model.description,
  difficulty: model.difficulty,
  hours: model.hours,
  minutes: model.minutes,
  coverPath: model.coverPath,
  sampleAudioPath: model.sampleAudioPath,
  sampleAudioMs: model.sampleAudioMs,
  sampleText: model.sampleText,
  language: 'en',
  cefr: 'A1' as const,
});
