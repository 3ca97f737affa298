import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonLogger } from '../http/app-logger';
import { PageCache } from '../http/page-cache';
import { newAdmin, type ApiClient } from './api-client';
import { assertBuilt, boot, stop, SEEDING_HOOK_MS } from './built-server';
import { bookForm } from './fixtures';
import { startServer, type TestServer } from './harness';
import { eventually } from './eventually';

/**
 * The page cache's hits are answered in front of Express (server/http/cached-hits.ts). These tests tell
 * which way a request went by watching Express's entry point, and hold the fast answers to what the
 * Express chain answers for the same URL: a miss (rendered, then sent as a hit is), or a hit the chain
 * serves itself (another spelling of the same query).
 */

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Header names in the order they were sent, in lower case. */
  names: string[];
  body: Buffer;
  /** Whether Express saw the request. */
  express: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BR = { 'Accept-Encoding': 'br, gzip' };
const GZIP = { 'Accept-Encoding': 'gzip' };
const ENCODINGS: Array<[string, Record<string, string>, string | undefined]> = [
  ['br', BR, 'br'],
  ['gzip', GZIP, 'gzip'],
  ['no Accept-Encoding', {}, undefined],
];

/** Everything two answers must share: all but the date and the request id, which are each request's own. */
function comparable(answer: Answer) {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([name]) => name !== 'date' && name !== 'x-request-id'),
  );
  return {
    status: answer.status,
    headers,
    names: answer.names.filter((name) => name !== 'date' && name !== 'x-request-id'),
    body: answer.body.toString('base64'),
  };
}

/** Counts the requests that reach Express (the request listener Nest gave the HTTP server). */
function watchExpress(server: TestServer) {
  const express = server.app.getHttpAdapter().getInstance() as unknown as {
    handle: (...args: unknown[]) => unknown;
  };
  const handle = jest.spyOn(express, 'handle');
  return (url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const before = handle.mock.calls.length;
      const req = http.request(
        server.baseUrl + url,
        { method: options.method ?? 'GET', headers: options.headers ?? {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
              body: Buffer.concat(chunks),
              express: handle.mock.calls.length > before,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });
}

/** A JSON logger writing into memory: the very class LOG_FORMAT=json gives the app. */
function jsonCapture() {
  const raw: string[] = [];
  const logger = new JsonLogger({ write: (line: string) => void raw.push(line) });
  const requests = () =>
    raw
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.context === 'HTTP');
  return { logger, requests };
}

async function addBook(admin: ApiClient, title: string): Promise<string> {
  const created = await admin.post<{ data: { book_code: string } }>(
    'admin/book',
    bookForm({ title, language: 'nl', cefr: 'A2' }),
  );
  expect(created.status).toBe(200);
  return created.body.data.book_code;
}

describe('Cache hits before Express: the guest API', () => {
  let server: TestServer;
  let admin: ApiClient;
  let get: ReturnType<typeof watchExpress>;
  let code: string;
  const log = jsonCapture();
  const clear = () => server.app.get(PageCache).clear();

  beforeAll(async () => {
    server = await startServer(undefined, { LOG_FORMAT: 'json' }, log.logger);
    admin = (await newAdmin(server)).client;
    code = await addBook(admin, 'Het Verloren Station');
    await addBook(admin, 'De Fiets');
    get = watchExpress(server);
  });
  afterAll(() => server.close());

  const urls = () => [
    '/api/v1/guest/list-book',
    '/api/v1/guest/books?lang=nl&cefr=A2',
    `/api/v1/guest/book-detail/${code}`,
  ];

  it.each(ENCODINGS)(
    'answers a hit (%s) without Express, with the headers, status and body of the miss',
    async (_name, headers, encoding) => {
      for (const url of urls()) {
        clear();
        const miss = await get(url, { headers });
        expect([url, miss.status, miss.express]).toEqual([url, 200, true]);
        expect(miss.headers['content-encoding']).toBe(encoding);
        const hit = await get(url, { headers });
        expect([url, hit.express]).toEqual([url, false]);
        expect(comparable(hit)).toEqual(comparable(miss));
        expect(hit.headers['x-request-id']).toMatch(UUID);
        expect(hit.headers['x-request-id']).not.toBe(miss.headers['x-request-id']);
      }
    },
  );

  it('answers as the chain does when it serves the same entry for another spelling of the query', async () => {
    await get('/api/v1/guest/books?lang=nl&cefr=A2');
    const canonical = await get('/api/v1/guest/books?lang=nl&cefr=A2', { headers: BR });
    expect(canonical.express).toBe(false);
    for (const other of ['?cefr=A2&lang=nl', '?lang=nl&cefr=A2&page=1', '?lang=NL&cefr=a2&utm=x']) {
      const respelled = await get(`/api/v1/guest/books${other}`, { headers: BR });
      expect([other, respelled.express]).toEqual([other, true]);
      expect(comparable(respelled)).toEqual(comparable(canonical));
    }
  });

  it('answers If-None-Match with the 304 the chain gives, miss or hit', async () => {
    const url = '/api/v1/guest/books?lang=nl&cefr=A2';
    const etag = (await get(url, { headers: BR })).headers.etag!;
    const conditional = { ...BR, 'If-None-Match': etag };
    clear();
    const miss = await get(url, { headers: conditional });
    expect([miss.status, miss.express]).toEqual([304, true]);
    const hit = await get(url, { headers: conditional });
    expect([hit.status, hit.express]).toEqual([304, false]);
    expect(comparable(hit)).toEqual(comparable(miss));
    const respelled = await get('/api/v1/guest/books?cefr=A2&lang=nl', { headers: conditional });
    expect([respelled.status, respelled.express]).toEqual([304, true]);
    expect(comparable(respelled)).toEqual(comparable(hit));
    expect(hit.headers).toEqual(
      expect.objectContaining({
        etag,
        'cache-control': 'public, max-age=0, must-revalidate',
        vary: 'Accept-Encoding',
      }),
    );
    expect(hit.headers['content-length']).toBeUndefined();
    expect(hit.body.length).toBe(0);

    // The same rules as Express's req.fresh: weak and listed tags match; a reload or a date alone does not.
    for (const [headers, status] of [
      [{ 'If-None-Match': `W/${etag}` }, 304],
      [{ 'If-None-Match': `"other", ${etag}` }, 304],
      [{ 'If-None-Match': '*' }, 304],
      [{ 'If-None-Match': '"other"' }, 200],
      [{ 'If-None-Match': etag, 'Cache-Control': 'no-cache' }, 200],
      [{ 'If-Modified-Since': new Date().toUTCString() }, 200],
    ] as const) {
      const fast = await get(url, { headers: { ...BR, ...headers } });
      const chain = await get('/api/v1/guest/books?cefr=A2&lang=nl', { headers: { ...BR, ...headers } });
      expect([headers, fast.status, fast.express, chain.status, chain.express]).toEqual([
        headers,
        status,
        false,
        status,
        true,
      ]);
      expect(comparable(fast)).toEqual(comparable(chain));
    }
  });

  it('answers HEAD with the headers of the GET and no body, as the chain does', async () => {
    const url = `/api/v1/guest/book-detail/${code}`;
    clear();
    const miss = await get(url, { method: 'HEAD', headers: BR });
    expect([miss.status, miss.express]).toEqual([200, true]);
    const hit = await get(url, { method: 'HEAD', headers: BR });
    expect([hit.status, hit.express]).toEqual([200, false]);
    expect(comparable(hit)).toEqual(comparable(miss));
    expect(hit.body.length).toBe(0);
    const body = await get(url, { headers: BR });
    expect(hit.headers['content-length']).toBe(String(body.body.length));
    expect(comparable({ ...hit, body: body.body })).toEqual(comparable(body));
  });

  it('logs a hit as the chain logs a request, keeping the id a trusted proxy gave it', async () => {
    const url = '/api/v1/guest/books?lang=nl&cefr=A2';
    await get(url);
    const id = 'edge-7f3a.19:fast_hit';
    const hit = await get(url, { headers: { 'X-Request-Id': id } });
    expect([hit.express, hit.headers['x-request-id']]).toEqual([false, id]);
    const head = await get(url, { method: 'HEAD', headers: { 'X-Request-Id': `${id}-head` } });
    const unchanged = await get(url, {
      headers: { 'X-Request-Id': 'a b', 'If-None-Match': hit.headers.etag! },
    });
    expect([head.express, unchanged.express, unchanged.status]).toEqual([false, false, 304]);
    expect(unchanged.headers['x-request-id']).toMatch(UUID);

    const line = (method: string, status: number, requestId: unknown): unknown =>
      expect.objectContaining({
        msg: 'request completed',
        method,
        path: '/api/v1/guest/books',
        status,
        duration_ms: expect.any(Number),
        request_id: requestId,
      });
    expect(log.requests().slice(-3)).toEqual([
      line('GET', 200, id),
      line('HEAD', 200, `${id}-head`),
      line('GET', 304, unchanged.headers['x-request-id']),
    ]);
    expect(JSON.stringify(log.requests())).not.toContain('lang=nl');
  });

  it('leaves to Express what it does not keep, or answers otherwise', async () => {
    const url = '/api/v1/guest/books?lang=nl&cefr=A2';
    await get(url);
    expect((await get(url)).express).toBe(false);
    const chain: Array<[string, Parameters<typeof get>[1]]> = [
      [url, { method: 'POST' }],
      [url, { method: 'POST', headers: { 'Content-Type': 'text/plain', 'Content-Length': '1' }, body: 'x' }],
      ['/api/v1/guest/list-book?_method=put', { method: 'POST' }],
      // A body on the way needs the chain's lingering close (body/unread-body.ts).
      [url, { headers: { 'Content-Type': 'text/plain', 'Content-Length': '10' }, body: 'unexpected' }],
      // Other spellings of the path.
      ['/API/v1/guest/books?lang=nl&cefr=A2', {}],
      ['/api/v1/guest/books/?lang=nl&cefr=A2', {}],
      ['/api/v1/guest/%62ooks?lang=nl&cefr=A2', {}],
      // Searches are never kept; invalid queries are the route's 422.
      ['/api/v1/guest/books?q=station', {}],
      ['/api/v1/guest/books?q=station', {}],
      ['/api/v1/guest/books?per_page=101', {}],
      // The compression middleware deflates for a client that takes neither brotli nor gzip.
      [url, { headers: { 'Accept-Encoding': 'deflate' } }],
      // Private and uncached routes.
      ['/api/v1/user/profile', {}],
      ['/api/v1/health', {}],
      // No pages in this server: a page's path is Express's 404.
      ['/lingostory', {}],
    ];
    for (const [path, options] of chain) {
      const answer = await get(path, options);
      expect([path, options, answer.express]).toEqual([path, options, true]);
    }
    expect((await get(url, { headers: { 'Accept-Encoding': 'deflate' } })).headers['content-encoding']).toBe(
      'deflate',
    );
    expect((await get('/api/v1/guest/books?per_page=101')).status).toBe(422);
  });

  it('answers the first request after a catalogue change from a new render', async () => {
    const url = '/api/v1/guest/list-book';
    await get(url);
    expect((await get(url)).express).toBe(false);
    await addBook(admin, 'Het Nieuwe Boek');
    const after = await get(url);
    expect(after.express).toBe(true);
    expect(after.body.toString()).toContain('Het Nieuwe Boek');
    const hit = await get(url);
    expect(hit.express).toBe(false);
    expect(hit.body.toString()).toContain('Het Nieuwe Boek');
  });
});

describe('Cache hits before Express with TRUST_PROXY=false', () => {
  it('gives a hit a new id whatever the peer sends', async () => {
    const server = await startServer(undefined, { TRUST_PROXY: 'false' });
    try {
      const get = watchExpress(server);
      await get('/api/v1/guest/list-book');
      const hit = await get('/api/v1/guest/list-book', {
        headers: { 'X-Request-Id': 'chosen-by-the-client' },
      });
      expect(hit.express).toBe(false);
      expect(hit.headers['x-request-id']).toMatch(UUID);
    } finally {
      await server.close();
    }
  });
});

/**
 * The pages can only be served by the built server (Astro's build is ESM, which Jest does not load), so
 * which way a request went is not visible here: cached-hits.spec.ts tells which page requests the fast
 * path takes, and these tests that what they get is what the chain gave. Nothing asks for a page before
 * its test, so the first request of a path is its miss.
 */
describe('Cache hits before Express: the built pages', () => {
  let child: ChildProcess;
  let url: string;
  let output: () => string;
  let storage: string;
  let books: string[];

  beforeAll(async () => {
    assertBuilt();
    storage = mkdtempSync(join(tmpdir(), 'lingonovel-fast-'));
    ({ child, url, output } = await boot({ STORAGE_DIR: storage, PUBLIC_URL: 'https://books.example.org' }, [
      '--demo',
    ]));
    const list = (await (await fetch(`${url}/api/v1/guest/list-book`)).json()) as {
      data: Array<{ book_code: string }>;
    };
    books = list.data.map((book) => book.book_code);
  }, SEEDING_HOOK_MS);
  afterAll(async () => {
    await stop(child);
    rmSync(storage, { recursive: true, force: true });
  });

  const send = (path: string, options: { method?: string; headers?: Record<string, string> } = {}) =>
    new Promise<Omit<Answer, 'express'>>((resolve, reject) => {
      http
        .request(url + path, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              names: res.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject)
        .end();
    });
  const same = (a: Omit<Answer, 'express'>, b: Omit<Answer, 'express'>) =>
    expect(comparable({ ...a, express: true })).toEqual(comparable({ ...b, express: true }));

  it.each(ENCODINGS)('answers a hit (%s) as the miss was answered', async (name, headers) => {
    const index = ENCODINGS.findIndex(([other]) => other === name);
    for (const path of [['/lingostory', '/ling', '/about'][index], `/book-detail/${books[index]}`]) {
      const miss = await send(path, { headers });
      const hit = await send(path, { headers });
      expect([path, miss.status, hit.status]).toEqual([path, 200, 200]);
      same(hit, miss);
      // The page policy with the site's script hashes, and HSTS for an https PUBLIC_URL.
      expect(hit.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
      expect(hit.headers['strict-transport-security']).toBe('max-age=15552000');
      // A page without filters ignores its query string, on either path.
      same(await send(`${path}?utm_source=mail`, { headers }), hit);
    }
  });

  it('answers HEAD as the chain does, and logs the hit', async () => {
    const miss = await send('/lingonovel-story', { method: 'HEAD', headers: BR });
    const hit = await send('/lingonovel-story', { method: 'HEAD', headers: BR });
    expect([miss.status, hit.status, hit.body.length]).toEqual([200, 200, 0]);
    same(hit, miss);
    const id = 'edge-42:page';
    await send('/lingonovel-story', { headers: { ...BR, 'X-Request-Id': id } });
    // The child writes its log line as the answer goes out: wait for it to come through the pipe.
    const line = new RegExp(`GET /lingonovel-story 200 [\\d.]+ms id=${id}`);
    await eventually(() => line.test(output()), 'the log line');
  });

  it('answers If-None-Match with the 304 the chain gives, after a change cleared the cache too', async () => {
    const etag = (await send('/support', { headers: BR })).headers.etag!;
    const credentials = JSON.parse(readFileSync(join(storage, 'demo-admin.json'), 'utf8')) as object;
    const login = await fetch(`${url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    const { token } = (await login.json()) as { token: string };
    // A catalogue change clears the cache; the support page's text, and so its tag, stays the same.
    const created = await fetch(`${url}/api/v1/admin/book`, {
      method: 'POST',
      body: bookForm({ title: 'Een Nieuw Boek' }),
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(created.status).toBe(200);
    const conditional = { ...BR, 'If-None-Match': etag };
    const miss = await send('/support', { headers: conditional });
    const hit = await send('/support', { headers: conditional });
    expect([miss.status, hit.status]).toEqual([304, 304]);
    same(hit, miss);
    expect(hit.headers).toEqual(expect.objectContaining({ etag, vary: 'Accept-Encoding' }));
  });
});
