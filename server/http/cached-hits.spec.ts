import { Logger } from '@nestjs/common';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'node:querystring';
import { cachedHits, serveCachedHitsFirst } from './cached-hits';
import { PageCache } from './page-cache';
import { apiRoutes, PAGE_ROUTES } from './query-rules';
import { securityHeaderLists } from './security-headers';

/** The paths kept in the cache, as the cached routes would have kept them. */
const KEPT = [
  '/lingostory',
  '/books?lang=nl',
  '/api/v1/guest/list-book',
  '/api/v1/guest/books?lang=nl&cefr=A2',
  // Never kept by the chain (media and other API routes answer before the cache): never served fast.
  '/media/covers/x.webp',
  '/api/v1/health',
  '/api/docs',
  // A chapter's answers: without translations, and with the two languages it has (translation-index.ts).
  '/api/v1/guest/book/le-petit-voyage/chapter/1',
  '/api/v1/guest/book/le-petit-voyage/chapter/1?translations=de,en',
];

/** The translation index as chapter-keyed answers need it: chapter 1 has de and en; null: cannot tell. */
const withLanguages = (known: boolean) => ({
  languagesOf: (code: string, chapterNo: string) =>
    known ? (code === 'le-petit-voyage' && chapterNo === '1' ? ['de', 'en'] : []) : null,
});

/** An HTTP server whose "chain" answers 299, with the fast path in front of it. */
async function serve(pages: boolean, languages = withLanguages(true)) {
  const cache = new PageCache();
  for (const key of KEPT)
    await cache.render(key, () =>
      Promise.resolve({ status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from(key) }),
    );
  const server = http.createServer((_req, res) => res.writeHead(299).end('chain'));
  serveCachedHitsFirst(
    server,
    cachedHits({
      cache,
      api: apiRoutes(languages),
      pages: pages ? PAGE_ROUTES : null,
      security: securityHeaderLists([], 'http://localhost'),
      logFormat: 'text',
      trustProxy: () => true,
      parseQuery: parse,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
    new Promise<{ way: 'fast' | 'chain'; headers: http.IncomingHttpHeaders; body: string }>(
      (resolve, reject) => {
        http
          .request(base + path, { method, headers }, (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () =>
              resolve({ way: res.statusCode === 299 ? 'chain' : 'fast', headers: res.headers, body }),
            );
          })
          .on('error', reject)
          .end();
      },
    );
  return { request, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe(cachedHits.name, () => {
  beforeAll(() => {
    Logger.overrideLogger(false);
  });

  it.each([
    ['/lingostory', 'fast'],
    // A page without a rule ignores its query string, as the chain does.
    ['/lingostory?utm_source=mail', 'fast'],
    ['/books?lang=nl', 'fast'],
    // A query the chain redirects to its canonical spelling, refuses, or renders every time (a search).
    ['/books?lang=NL', 'chain'],
    ['/books?page=1&lang=nl', 'chain'],
    ['/books?lang=nl&q=fiets', 'chain'],
    ['/books?lang=!!', 'chain'],
    ['/books', 'chain'],
    // Other spellings of a path.
    ['/LingoStory', 'chain'],
    ['/lingostory/', 'chain'],
    ['/%6cingostory', 'chain'],
    ['//lingostory', 'chain'],
    ['/api/v1/guest/list-book', 'fast'],
    ['/api/v1/guest/books?lang=nl&cefr=A2', 'fast'],
    ['/api/v1/guest/books?cefr=A2&lang=nl', 'chain'],
    ['/api/v1/guest/books?lang=nl&cefr=A2&q=x', 'chain'],
    ['/media/covers/x.webp', 'chain'],
    ['/api/v1/health', 'chain'],
    ['/api/docs', 'chain'],
    ['/admin', 'chain'],
  ])('takes %s the %s way', async (path, way) => {
    const server = await serve(true);
    try {
      expect((await server.request(path)).way).toBe(way);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['?translations=de,en', 'fast'],
    ['', 'fast'],
    // Kept under the spelling its key has: other orders and unknown tags go through the chain.
    ['?translations=en,de', 'chain'],
    ['?translations=de,en,xx', 'chain'],
    ['?translations=fr', 'chain'],
    ['?translations=en_US', 'chain'],
  ])('takes a chapter with translations %s the %s way', async (query, way) => {
    const server = await serve(true);
    try {
      const res = await server.request(`/api/v1/guest/book/le-petit-voyage/chapter/1${query}`);
      expect(res.way).toBe(way);
      if (way === 'fast') expect(res.body).toBe(`/api/v1/guest/book/le-petit-voyage/chapter/1${query}`);
    } finally {
      await server.close();
    }
  });

  it('serves no chapter with translations from the cache while the index cannot tell', async () => {
    const server = await serve(true, withLanguages(false));
    try {
      const chapter = '/api/v1/guest/book/le-petit-voyage/chapter/1';
      expect((await server.request(`${chapter}?translations=de,en`)).way).toBe('chain');
      // Without translations the key needs no index.
      expect((await server.request(chapter)).way).toBe('fast');
    } finally {
      await server.close();
    }
  });

  it('answers GET and HEAD only, and leaves deflate to the compression middleware', async () => {
    const server = await serve(true);
    try {
      expect((await server.request('/lingostory', 'HEAD')).way).toBe('fast');
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS'])
        expect([method, (await server.request('/lingostory', method)).way]).toEqual([method, 'chain']);
      for (const [accept, way] of [
        ['br, gzip, deflate', 'fast'],
        ['identity', 'fast'],
        ['deflate', 'chain'],
        ['*;q=1, br;q=0, gzip;q=0', 'chain'],
      ])
        expect([
          accept,
          (await server.request('/lingostory', 'GET', { 'Accept-Encoding': accept })).way,
        ]).toEqual([accept, way]);
    } finally {
      await server.close();
    }
  });

  it("gives each answer its kind's security headers and the request id", async () => {
    const server = await serve(true);
    const lists = securityHeaderLists([], 'http://localhost');
    const csp = (list: typeof lists.page) => list.find(([name]) => name === 'Content-Security-Policy')?.[1];
    try {
      const page = await server.request('/lingostory', 'GET', { 'X-Request-Id': 'proxy-1' });
      const api = await server.request('/api/v1/guest/list-book');
      expect([page.body, page.headers['content-security-policy'], page.headers['x-request-id']]).toEqual([
        '/lingostory',
        csp(lists.page),
        'proxy-1',
      ]);
      expect([api.body, api.headers['content-security-policy']]).toEqual([
        '/api/v1/guest/list-book',
        csp(lists.api),
      ]);
    } finally {
      await server.close();
    }
  });

  it('serves no page when no site is mounted', async () => {
    const server = await serve(false);
    try {
      expect((await server.request('/lingostory')).way).toBe('chain');
      expect((await server.request('/api/v1/guest/list-book')).way).toBe('fast');
    } finally {
      await server.close();
    }
  });
});
