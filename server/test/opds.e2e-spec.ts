import { STATUS_CODES } from 'node:http';
import { SaxesParser } from 'saxes';
import sharp from 'sharp';
import OPDSParser, {
  AcquisitionFeed,
  NavigationFeed,
  OPDSAcquisitionLink,
  OPDSArtworkLink,
  SearchLink,
  type OPDSEntry,
  type OPDSFeed,
} from 'opds-feed-parser';
import { DataSource } from 'typeorm';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { DERIVED_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { opdsCoverKey } from '../publishing/opds/opds-covers';
import { DemoSeedService } from '../seed/demo-seed.service';
import { CoverageRefresher } from '../learning/word-status/coverage-refresher';
import { ApiClient, newAdmin, newMember } from './api-client';
import { bookForm } from './fixtures';
import { startServer, type TestServer } from './harness';
import { StripeStandIn } from './stripe-stand-in';
import { stripeEnv, webhooks } from './stripe-webhooks';

const PUBLIC_URL = 'https://books.example.org';
const NAVIGATION = 'application/atom+xml;profile=opds-catalog;kind=navigation';
const ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
const FULL = 'http://opds-spec.org/acquisition';
const SAMPLE = 'http://opds-spec.org/acquisition/sample';
/** Nine demo books and these: 26 in all, more than the 24 of one page. */
const EXTRA = 17;
const TRICKY_TITLE = 'Tom & Jerry <en> "au" café';
/** Characters XML 1.0 forbids (a control, U+FFFF, a lone surrogate), written past the admin form. */
const FORBIDDEN = 'Glitch \u0001 title \uFFFF half \uD800 end';
/** What a feed holds of it: the forbidden characters dropped (the database may turn the half into U+FFFDs). */
const FORBIDDEN_READ = /^Glitch {2}title {2}half \uFFFD* end$/;
const SORT_NEW = 'http://opds-spec.org/sort/new';

/** Strict XML 1.0 with namespaces (saxes): forbidden characters and unbound prefixes are errors. */
function wellFormed(xml: string): true | string {
  const parser = new SaxesParser({ xmlns: true });
  let failure: string | null = null;
  parser.on('error', (error) => (failure ??= error.message));
  parser.write(xml).close();
  return failure ?? true;
}

/**
 * The OPDS catalogue as a reading app sees it: every feed is read with NYPL's OPDS client library
 * (opds-feed-parser, used by their reading apps) after a strict XML well-formedness check, and followed by
 * its own links, as KOReader or Thorium would.
 */
/** Resolves once the server has sent no query for 300 ms. */
async function quiet(logger: DataSource['logger']): Promise<void> {
  const spy = jest.spyOn(logger, 'logQuery');
  try {
    for (let seen = -1; seen !== spy.mock.calls.length;) {
      seen = spy.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } finally {
    spy.mockRestore();
  }
}

describe('OPDS 1.2 catalogue feeds', () => {
  let server: TestServer;
  const standIn = new StripeStandIn();
  const { setPlan } = webhooks(() => server);
  const now = () => Math.floor(Date.now() / 1000);
  let visitor: ApiClient;
  /** A member with a trial, by bearer token; and the HTTP Basic header of their app password. */
  let trial: { client: ApiClient; basic: string; passwordId: number };
  let lapsedBasic: string;
  let admin: ApiClient;

  /** An absolute feed URL (from PUBLIC_URL) as a path on the test server. */
  const local = (url: string) => {
    expect(url.startsWith(`${PUBLIC_URL}/api/v1/`)).toBe(true);
    return url.slice(`${PUBLIC_URL}/api/v1/`.length);
  };

  interface Fetched {
    status: number;
    type: string | null;
    cacheControl: string | null;
    text: string;
    feed: OPDSFeed;
  }
  /** GETs a feed (a path under /api/v1 or an absolute URL from a feed) and parses it as a reading app. */
  const get = async (path: string, as: ApiClient = visitor, headers: Record<string, string> = {}) => {
    const res = await as.get(path.startsWith('http') ? local(path) : path, headers);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const fetched = {
      status: res.status,
      type: res.headers.get('content-type'),
      cacheControl: res.headers.get('cache-control'),
      text: res.text,
    };
    if (res.status !== 200) return { ...fetched, feed: null as unknown as OPDSFeed };
    expect(wellFormed(res.text)).toBe(true);
    return { ...fetched, feed: await new OPDSParser().parse(res.text) } as Fetched;
  };
  const navigation = async (path: string) => {
    const res = await get(path);
    expect([res.status, res.type]).toEqual([200, NAVIGATION]);
    expect(res.feed).toBeInstanceOf(NavigationFeed);
    return res.feed;
  };
  const acquisition = async (path: string, as?: ApiClient, headers?: Record<string, string>) => {
    const res = await get(path, as, headers);
    expect([res.status, res.type]).toEqual([200, ACQUISITION]);
    expect(res.feed).toBeInstanceOf(AcquisitionFeed);
    return res.feed;
  };
  const link = (feed: OPDSFeed, rel: string) => feed.links.find((l) => l.rel === rel)?.href;
  const subsection = (feed: NavigationFeed, title: string, rel = 'subsection') =>
    feed.entries.find((entry) => entry.title === title)!.links.find((l) => l.rel === rel)!.href;
  const acquisitionRels = (feed: OPDSFeed) =>
    new Set(feed.entries.map((entry) => entry.links.find((l) => l instanceof OPDSAcquisitionLink)!.rel));
  /** Every page of an acquisition feed, by following its `next` links. */
  const allPages = async (path: string, as?: ApiClient, headers?: Record<string, string>) => {
    const pages: AcquisitionFeed[] = [];
    for (let next: string | undefined = path; next; next = link(pages[pages.length - 1], 'next'))
      pages.push(await acquisition(next, as, headers));
    return pages;
  };
  const basicOf = (email: string, password: string) =>
    `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
  const appPassword = async (client: ApiClient) => {
    const res = await client.post<{ data: { id: number; password: string } }>('user/app-passwords', {
      name: 'KOReader',
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    server = await startServer(undefined, stripeEnv(await standIn.start()));
    expect(server.config.publicUrl).toBe(PUBLIC_URL);
    await server.app.get(DemoSeedService).seedOnce();
    admin = (await newAdmin(server)).client;
    const add = async (n: number) => {
      const fields =
        n === 1
          ? { title: TRICKY_TITLE, description: 'Less <b>than</b> & more', language: 'en', cefr: 'A1' }
          : { title: `Extra Book ${String(n).padStart(2, '0')}`, language: 'sv', cefr: '' };
      const res = await admin.post('admin/book', bookForm(fields));
      if (res.status !== 200) throw new Error(res.text);
    };
    // Four at a time: each cover is resized three times, and the machine is shared.
    for (let n = 1; n <= EXTRA; n += 4)
      await Promise.all([n, n + 1, n + 2, n + 3].filter((k) => k <= EXTRA).map(add));
    // The admin form would not take these characters; an older row or another writer might hold them.
    const books = server.app.get(BooksRepository);
    const [glitch] = await books.codes('extra-book-02');
    if (!glitch) throw new Error('No Extra Book 02 to write past the form.');
    await books.update(glitch, { title: FORBIDDEN, description: FORBIDDEN });
    visitor = new ApiClient(server);

    const member = await newMember(server);
    await setPlan(member.id, 'trialing', now() + 30 * 86400);
    const password = await appPassword(member.client);
    trial = {
      client: member.client,
      basic: basicOf(member.email, password.password),
      passwordId: password.id,
    };

    const lapsed = await newMember(server);
    await setPlan(lapsed.id, 'canceled', now() - 3600);
    lapsedBasic = basicOf(lapsed.email, (await appPassword(lapsed.client)).password);
  }, 300_000);
  afterAll(async () => {
    await server.close();
    await standIn.stop();
  });

  it('opens on a navigation feed whose entries lead to the other feeds, with a search link', async () => {
    const root = await navigation('opds');
    expect(root.title).toBe('Lingonovel');
    expect(root.entries.map((entry) => entry.title)).toEqual(['By language', 'By level', 'New', 'All books']);
    expect(link(root, 'self')).toBe(`${PUBLIC_URL}/api/v1/opds`);
    expect(link(root, 'start')).toBe(`${PUBLIC_URL}/api/v1/opds`);
    const search = root.links.find((l) => l instanceof SearchLink)!;
    expect([search.href, search.type]).toEqual([
      `${PUBLIC_URL}/api/v1/opds/opensearch.xml`,
      'application/opensearchdescription+xml',
    ]);
    // OPDS 1.2 §6.2: the newest books are a sort facet, not a plain subsection.
    await acquisition(subsection(root, 'New', SORT_NEW));
    await acquisition(subsection(root, 'All books'));
    expect(root.entries.find((entry) => entry.title === 'New')!.links.map((l) => l.rel)).toEqual([SORT_NEW]);
  });

  it('answers private, no-store on a path under opds/ that names no feed', async () => {
    const res = await visitor.get('opds/nope');
    expect([res.status, res.headers.get('cache-control')]).toEqual([404, 'private, no-store']);
  });

  it('lists each language with its count, and a language leads to its books', async () => {
    const languages = await navigation(subsection(await navigation('opds'), 'By language'));
    const byTitle = Object.fromEntries(
      languages.entries.map((entry) => [entry.title, entry.summary.content]),
    );
    expect(byTitle).toMatchObject({ Swedish: `${EXTRA - 1} books`, French: '2 books', English: '1 book' });
    const french = await acquisition(subsection(languages, 'French'));
    expect(french.title).toBe('French');
    expect(french.entries.map((entry) => entry.title).sort()).toEqual([
      'La Nuit des Horloges',
      'Le Petit Voyage',
    ]);
    expect(french.entries.map((entry) => entry.language)).toEqual(['fr', 'fr']);
    expect(link(french, 'up')).toBe(`${PUBLIC_URL}/api/v1/opds/languages`);
  });

  it('lists the levels that have books, and a level leads to its books', async () => {
    const levels = await navigation(subsection(await navigation('opds'), 'By level'));
    expect(levels.entries.map((entry) => entry.title)).toEqual([
      'Level A1',
      'Level A2',
      'Level B1',
      'Level B2',
      'Level C1',
      'Without a level',
    ]);
    const b1 = await acquisition(subsection(levels, 'Level B1'));
    expect(b1.entries.map((entry) => entry.title).sort()).toEqual([
      'Der Leuchtturmwärter',
      'Una Estate a Napoli',
    ]);
    const categories = b1.entries.flatMap((entry) => entry.categories.map((c) => c.term));
    expect(categories).toEqual(expect.arrayContaining(['B1', 'de', 'it']));
    const none = await acquisition(subsection(levels, 'Without a level'));
    expect(none.entries).toHaveLength(EXTRA - 1);
  });

  it('pages every book by title, linked first, previous, next and last, with OpenSearch counts', async () => {
    const pages = await allPages('opds/books');
    expect(pages.map((page) => page.entries.length)).toEqual([24, 9 + EXTRA - 24]);
    expect(pages.map((page) => page.search)).toEqual([
      { totalResults: 9 + EXTRA, startIndex: 1, itemsPerPage: 24 },
      { totalResults: 9 + EXTRA, startIndex: 25, itemsPerPage: 24 },
    ]);
    const ids = pages.flatMap((page) => page.entries.map((entry) => entry.id));
    expect(new Set(ids).size).toBe(9 + EXTRA);
    const titles = pages.flatMap((page) => page.entries.map((entry) => entry.title));
    expect(titles).toContain(TRICKY_TITLE);
    expect(titles).toContain('Die Kartografin');
    const [first, second] = pages;
    expect([link(first, 'previous'), link(second, 'next')]).toEqual([undefined, undefined]);
    expect(link(second, 'previous')).toBe(`${PUBLIC_URL}/api/v1/opds/books`);
    expect(link(first, 'last')).toBe(`${PUBLIC_URL}/api/v1/opds/books?page=2`);
    expect(link(second, 'first')).toBe(`${PUBLIC_URL}/api/v1/opds/books`);
  });

  it('reads a page of books in a fixed few queries, without the facet counts no feed shows', async () => {
    const logger = server.app.get(DataSource).logger;
    // The background work after the seeded books (the boot's chapter counts, coverage after catalogue
    // changes) reads books too: the request's queries are counted once it has stopped.
    await server.app.get(BooksRepository).chaptersCounted;
    await server.app.get(CoverageRefresher).settled();
    await quiet(logger);
    const spy = jest.spyOn(logger, 'logQuery');
    try {
      expect((await visitor.get('opds/languages/de')).status).toBe(200);
      const onBooks = spy.mock.calls.map(([sql]) => sql).filter((sql) => /\bbooks\b/.test(sql));
      // The page, its total, and the chapter-count join for the entries: no GROUP BY of a facet.
      expect(onBooks.filter((sql) => /GROUP BY "?b"?\."?(language|cefr|difficulty)/i.test(sql))).toEqual([]);
      expect(onBooks.length).toBeLessThanOrEqual(4);
    } finally {
      spy.mockRestore();
    }
  });

  it('describes each book: id, author, language, summary, covers, its page and the EPUB', async () => {
    const [page] = await allPages(subsection(await navigation('opds'), 'New', SORT_NEW));
    const entry = page.entries.find((e) => e.title === TRICKY_TITLE) as OPDSEntry;
    expect(entry.id).toMatch(/^urn:lingonovel:book:/);
    expect(entry.authors[0].name).toBeTruthy();
    expect(entry.language).toBe('en');
    expect(entry.summary.content).toBe('Less <b>than</b> & more');
    expect(entry.categories.map((c) => [c.term, c.label])).toEqual([
      ['A1', 'Level A1'],
      ['en', 'English'],
    ]);
    const code = entry.id.split(':').pop()!;
    const byRel = Object.fromEntries(entry.links.map((l) => [l.rel, l]));
    expect(byRel[SAMPLE]).toMatchObject({
      href: `${PUBLIC_URL}/api/v1/downloads/${code}/epub`,
      type: 'application/epub+zip',
    });
    expect(byRel.alternate).toMatchObject({ href: `${PUBLIC_URL}/book-detail/${code}`, type: 'text/html' });
    // OPDS 1.2 §5.2.2: GIF, JPEG or PNG only, so the stored WebP is served converted.
    const artwork = entry.links.filter((l) => l instanceof OPDSArtworkLink);
    expect(artwork.map((l) => [l.rel, l.href, l.type])).toEqual([
      ['http://opds-spec.org/image', `${PUBLIC_URL}/api/v1/opds/covers/${code}/640.jpg`, 'image/jpeg'],
      [
        'http://opds-spec.org/image/thumbnail',
        `${PUBLIC_URL}/api/v1/opds/covers/${code}/320.jpg`,
        'image/jpeg',
      ],
    ]);
    expect(entry.links.some((l) => /webp/.test(`${l.type} ${l.href}`))).toBe(false);
  });

  it('serves JPEG covers at the linked widths, converted once and kept in the derived store', async () => {
    const [page] = await allPages('opds/new');
    const entry = page.entries.find((e) => e.title === TRICKY_TITLE)!;
    const { coverPath } = (await server.app.get(BooksRepository).byCode(entry.id.split(':').pop()!))!;
    const derived = server.app.get<MediaStore>(DERIVED_STORE);
    for (const cover of entry.links.filter((l) => l instanceof OPDSArtworkLink)) {
      const width = cover.href.endsWith('/640.jpg') ? 640 : 320;
      expect(await derived.head(opdsCoverKey(coverPath, width))).toBeNull();
      for (let round = 0; round < 2; round++) {
        const res = await fetch(server.baseUrl + cover.href.slice(PUBLIC_URL.length));
        expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
          200,
          'image/jpeg',
          'private, no-store',
        ]);
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', width, width * 1.5]);
        expect(await derived.head(opdsCoverKey(coverPath, width))).toMatchObject({
          contentType: 'image/jpeg',
        });
      }
    }
    const code = entry.id.split(':').pop()!;
    for (const path of [`opds/covers/${code}/480.jpg`, 'opds/covers/no-such-book/640.jpg']) {
      const res = await visitor.get(path);
      expect([path, res.status, res.headers.get('cache-control')]).toEqual([path, 404, 'private, no-store']);
    }
  });

  it('gives a visitor sample links, and a member with a trial full ones, by app password or token', async () => {
    const rels = async (as: ApiClient, headers?: Record<string, string>) =>
      new Set((await allPages('opds/books', as, headers)).flatMap((page) => [...acquisitionRels(page)]));
    expect(await rels(visitor)).toEqual(new Set([SAMPLE]));
    expect(await rels(new ApiClient(server), { Authorization: trial.basic })).toEqual(new Set([FULL]));
    expect(await rels(trial.client)).toEqual(new Set([FULL]));
    expect(await rels(new ApiClient(server), { Authorization: lapsedBasic })).toEqual(new Set([SAMPLE]));
    expect(await rels(admin)).toEqual(new Set([FULL]));
  });

  it('is never kept by the page cache: the same URL answers each reader their own links', async () => {
    for (let round = 0; round < 2; round++) {
      expect(acquisitionRels(await acquisition('opds/new'))).toEqual(new Set([SAMPLE]));
      const member = await acquisition('opds/new', new ApiClient(server), { Authorization: trial.basic });
      expect(acquisitionRels(member)).toEqual(new Set([FULL]));
    }
  });

  it('finds a demo book by a word of its title, and answers an empty feed when nothing matches', async () => {
    const found = await acquisition('opds/search?q=leuchtturm');
    expect(found.entries.map((entry) => entry.title)).toEqual(['Der Leuchtturmwärter']);
    expect(found.search.totalResults).toBe(1);
    const spaced = await acquisition('opds/search?q=' + encodeURIComponent('Tom & Jerry'));
    expect(spaced.entries.map((entry) => entry.title)).toEqual([TRICKY_TITLE]);
    const nothing = await acquisition('opds/search?q=zzyzx');
    expect([nothing.entries.length, nothing.search.totalResults]).toEqual([0, 0]);
    const blank = await visitor.get('opds/search?q=%20');
    expect([blank.status, blank.body]).toEqual([
      422,
      expect.objectContaining({
        message: 'Give the words to search for.',
        errors: { q: ['Give the words to search for.'] },
      }),
    ]);
  });

  it('serves an OpenSearch description whose template leads to the search feed', async () => {
    const res = await visitor.get('opds/opensearch.xml');
    expect([res.status, res.headers.get('content-type')]).toEqual([
      200,
      'application/opensearchdescription+xml',
    ]);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(wellFormed(res.text)).toBe(true);
    expect(res.text).toContain('<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">');
    const template = /<Url type="([^"]+)" template="([^"]+)"\/>/.exec(res.text)!;
    expect(template[1]).toBe(ACQUISITION);
    expect(template[2]).toBe(`${PUBLIC_URL}/api/v1/opds/search?q={searchTerms}`);
    const feed = await acquisition(template[2].replace('{searchTerms}', 'valpara%C3%ADso'));
    expect(feed.entries.map((entry) => entry.title)).toEqual(['Las Cartas de Valparaíso']);
  });

  it('refuses wrong and revoked app passwords with 401 and a Basic challenge', async () => {
    const wrong = await get('opds', new ApiClient(server), {
      Authorization: basicOf('nobody@example.org', 'x'),
    });
    expect(wrong.status).toBe(401);
    const revoked = await trial.client.delete(`user/app-passwords/${trial.passwordId}`);
    expect(revoked.status).toBe(200);
    const res = await new ApiClient(server).get('opds/books', { Authorization: trial.basic });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="Lingonovel"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('answers 404 for a language or level without books and a page past the end, 422 for a bad page', async () => {
    const cases: Array<[string, number, string]> = [
      ['opds/languages/xx-notalang!', 404, 'There is no such language.'],
      ['opds/languages/ja', 404, 'This catalogue has no books in that language.'],
      ['opds/levels/Z9', 404, 'There is no such level.'],
      ['opds/levels/c2', 404, 'This catalogue has no books at that level.'],
      ['opds/books?page=3', 404, 'There is no page 3: this feed has 2 pages.'],
      ['opds/search?q=zzyzx&page=2', 404, 'There is no page 2: this feed has 1 page.'],
      ['opds/books?page=0', 422, 'The page must be a whole number from 1 to 10000.'],
      ['opds/new?page=abc', 422, 'The page must be a whole number from 1 to 10000.'],
      ['opds/new?page=-1', 422, 'The page must be a whole number from 1 to 10000.'],
      ['opds/new?page=1e9', 422, 'The page must be a whole number from 1 to 10000.'],
      ['opds/new?page=1&page=2', 422, 'Give page once, as text.'],
      [`opds/search?q=${'a'.repeat(201)}`, 422, 'The search text must not be longer than 200 characters.'],
    ];
    for (const [path, status, message] of cases) {
      const res = await visitor.get(path);
      expect([path, res.status, res.body?.message]).toEqual([path, status, message]);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
    // A bracketed name is another parameter, not page (the API's query strings are flat).
    expect((await acquisition('opds/new?page[]=')).search.startIndex).toBe(1);
    // Case and spelling as a reading app may send them.
    expect((await acquisition('opds/levels/b1')).title).toBe('Level B1');
    expect((await acquisition('opds/languages/FR')).entries).toHaveLength(2);
  });

  it('answers its errors as problem details labelled as such, as the OpenAPI document says', async () => {
    const document = (await (await visitor.raw('openapi.json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    };
    const pageRule = 'The page must be a whole number from 1 to 10000.';
    const cases: Array<[string, string, number, Record<string, unknown>]> = [
      [
        'opds/books?page=3',
        '/api/v1/opds/books',
        404,
        { detail: 'There is no page 3: this feed has 2 pages.' },
      ],
      [
        'opds/languages/xx-notalang!',
        '/api/v1/opds/languages/{lang}',
        404,
        { detail: 'There is no such language.' },
      ],
      ['opds/books?page=0', '/api/v1/opds/books', 422, { detail: pageRule, errors: { page: [pageRule] } }],
      [
        'opds/search?q=',
        '/api/v1/opds/search',
        422,
        { detail: 'Give the words to search for.', errors: { q: ['Give the words to search for.'] } },
      ],
    ];
    for (const [path, route, status, fields] of cases) {
      const res = await visitor.get(path);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([
        path,
        status,
        'application/problem+json; charset=utf-8',
      ]);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      // RFC 9457's members, and the API's `message` (and `errors`) beside them.
      expect(JSON.parse(res.text)).toEqual({
        type: 'about:blank',
        title: STATUS_CODES[status],
        status,
        message: fields.detail,
        ...fields,
      });
      const documented = document.paths[route].get.responses[String(status)];
      expect([path, Object.keys(documented.content)]).toEqual([path, ['application/problem+json']]);
    }
    // A path that names no feed, and a wrong app password, which the guard refuses before any feed is read.
    const unknown = await visitor.get('opds/nope');
    expect([unknown.status, unknown.headers.get('content-type')]).toEqual([
      404,
      'application/problem+json; charset=utf-8',
    ]);
    const wrong = await new ApiClient(server).get('opds', {
      Authorization: basicOf('nobody@example.org', 'x'),
    });
    expect([wrong.status, wrong.headers.get('content-type')]).toEqual([
      401,
      'application/problem+json; charset=utf-8',
    ]);
    expect(JSON.parse(wrong.text)).toEqual(expect.objectContaining({ status: 401, title: 'Unauthorized' }));
  });

  it('escapes every text: the library reads back the exact title and a strict parser accepts the feed', async () => {
    const res = await get('opds/search?q=jerry');
    expect(res.text).toContain('Tom &amp; Jerry &lt;en&gt; &quot;au&quot; café');
    expect(res.feed.entries[0].title).toBe(TRICKY_TITLE);
    // The check above can fail: the same feed unescaped is refused.
    expect(wellFormed(res.text.replace('Tom &amp; Jerry', 'Tom & Jerry'))).not.toBe(true);
    await expect(new OPDSParser().parse(res.text.replace('&lt;en&gt;', '<en>'))).rejects.toBeTruthy();
  });

  it('keeps every feed well-formed when a book holds characters XML forbids', async () => {
    const found = await acquisition('opds/search?q=glitch');
    expect(found.entries).toHaveLength(1);
    expect(found.entries[0].title).toMatch(FORBIDDEN_READ);
    expect(found.entries[0].summary.content).toMatch(FORBIDDEN_READ);
    // The same book in the paged lists and a language feed: each page passes the strict check in get().
    await allPages('opds/books');
    await allPages('opds/new');
    await allPages('opds/languages/sv');
  });

  it('searches % and _ as the characters they are, not as SQL wildcards', async () => {
    const titles = async (q: string) =>
      (await acquisition(`opds/search?q=${encodeURIComponent(q)}`)).entries
        .map((entry) => entry.title)
        .sort();
    // As wildcards, these would match every book, or every Extra Book.
    for (const q of ['%', '_', '%%', '__']) expect([q, await titles(q)]).toEqual([q, []]);
    for (const q of ['_xtra', '%xtra', '%%xtra']) expect([q, await titles(q)]).toEqual([q, []]);
    // As punctuation beside a word, they leave the word's matches as they are.
    const extra = await titles('extra');
    expect(extra.length).toBeGreaterThan(1);
    expect(await titles('extra%')).toEqual(extra);
  });
});
