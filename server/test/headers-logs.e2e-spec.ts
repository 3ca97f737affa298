import type { IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonLogger } from '../http/app-logger';
import { UsersService } from '../accounts/users/users.service';
import { newAdmin, newMember } from './api-client';
import { assertBuilt, boot, run, stop } from './built-server';
import { bookForm } from './fixtures';
import { rawGet, startServer, type TestServer } from './harness';

/** Every header helmet can set, and the ones it must not: absent ones come back undefined. */
const SECURITY_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'cross-origin-embedder-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-powered-by',
  'x-xss-protection',
];

const security = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(SECURITY_HEADERS.map((name) => [name, headers[name]]));

/** The same on every answer. */
const EVERYWHERE = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const PAGE_CSP = (scriptSrc: string) =>
  "default-src 'self';" +
  `script-src ${scriptSrc};` +
  "style-src 'self' 'unsafe-inline';img-src 'self' data:;media-src 'self';connect-src 'self';worker-src 'self';" +
  "font-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'self';object-src 'none'";
const API_CSP = "default-src 'none';frame-ancestors 'none'";
const DOCS_CSP =
  "default-src 'none';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;" +
  "connect-src 'self';frame-ancestors 'none'";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HSTS = 'max-age=15552000';

describe('Security headers', () => {
  let server: TestServer;
  let cover: string;

  beforeAll(async () => {
    server = await startServer();
    const admin = (await newAdmin(server)).client;
    const book = await admin.post<{ data: { image_path: string } }>('admin/book', bookForm());
    cover = book.body.data.image_path;
  });
  afterAll(() => server.close());

  it('gives an API answer the strict policy, and no HSTS over plain HTTP', async () => {
    const res = await rawGet(server.baseUrl + '/api/v1/health');
    expect(res.status).toBe(200);
    expect(security(res.headers)).toEqual({
      ...EVERYWHERE,
      'content-security-policy': API_CSP,
      'cross-origin-resource-policy': 'same-origin',
    });
    // Express routes /API/V1/... too: it gets the API's policy, not a page's.
    expect((await rawGet(server.baseUrl + '/API/V1/health')).headers['content-security-policy']).toBe(
      API_CSP,
    );
  });

  it('keeps an idle connection open longer than the clients and proxies in front of it do', async () => {
    // Closing first would race a client's next request on the same connection (a reset, or a proxy's 502).
    for (const path of ['/api/v1/health', '/api/v1/guest/books', '/api/v1/guest/books'])
      expect((await fetch(server.baseUrl + path)).headers.get('keep-alive')).toBe('timeout=65');
  });

  it("gives a page's path the page policy (no script hashes when no site is mounted)", async () => {
    const res = await rawGet(server.baseUrl + '/book/some-book');
    expect(security(res.headers)).toEqual({
      ...EVERYWHERE,
      'content-security-policy': PAGE_CSP("'self'"),
      'cross-origin-resource-policy': 'same-origin',
    });
  });

  it('lets another origin (a CDN, a page embedding it) load a media file', async () => {
    const res = await rawGet(server.baseUrl + cover);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(security(res.headers)).toEqual({
      ...EVERYWHERE,
      'content-security-policy': PAGE_CSP("'self'"),
      'cross-origin-resource-policy': 'cross-origin',
    });
  });

  it.each([
    '/api/docs',
    '/api/docs/',
    '/api/docs/swagger-ui.css',
    '/api/docs/swagger-ui-init.js',
    '/Api/Docs',
  ])('lets the API reference page %s load its own scripts and styles', async (path) => {
    // The page may not exist yet; its headers are what is asserted.
    const res = await rawGet(server.baseUrl + path);
    expect(security(res.headers)).toEqual({
      ...EVERYWHERE,
      'content-security-policy': DOCS_CSP,
      'cross-origin-resource-policy': 'same-origin',
    });
  });

  it('keeps the API policy on paths that only start like the docs', async () => {
    for (const path of ['/api/docs-json', '/api/docsx', '/api/v1/docs'])
      expect((await rawGet(server.baseUrl + path)).headers['content-security-policy']).toBe(API_CSP);
  });
});

describe('Security headers with an https PUBLIC_URL', () => {
  it('adds HSTS to every answer', async () => {
    const server = await startServer(undefined, { PUBLIC_URL: 'https://lingo.example.org' });
    try {
      for (const path of ['/api/v1/health', '/book/x', '/media/covers/none.webp', '/api/docs']) {
        const res = await rawGet(server.baseUrl + path);
        expect([path, res.headers['strict-transport-security']]).toEqual([path, HSTS]);
        expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      }
    } finally {
      await server.close();
    }
  });
});

/** A JSON logger writing into memory: the very class LOG_FORMAT=json gives the app. */
function jsonCapture() {
  const raw: string[] = [];
  const logger = new JsonLogger({ write: (line: string) => void raw.push(line) });
  const entries = () =>
    raw
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, raw, entries };
}

describe('LOG_FORMAT=json', () => {
  it('writes one JSON object per request with the same fields as the text line, and nothing secret', async () => {
    const { logger, raw, entries } = jsonCapture();
    const server = await startServer(undefined, { LOG_FORMAT: 'json' }, logger);
    try {
      const { client, email, password } = await newMember(server);
      await client.get('user/profile?token=query-secret-value&password=another-secret');
      await client.post('user/login?next=%2Fsecret-next', { email, password: 'wrong password 1' });

      // Each write is exactly one line holding one object.
      for (const line of raw) expect(line).toMatch(/^\{[^\n]*\}\n$/);
      const requests = entries().filter((entry) => entry.context === 'HTTP');
      const line = (method: string, path: string, status: number) => ({
        level: 'info',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        pid: process.pid,
        hostname: expect.any(String),
        context: 'HTTP',
        msg: 'request completed',
        method,
        path,
        status,
        duration_ms: expect.any(Number),
        request_id: expect.stringMatching(UUID),
      });
      expect(requests).toEqual([
        line('POST', '/api/v1/user/signup', 200),
        line('POST', '/api/v1/user/login', 200),
        line('GET', '/api/v1/user/profile', 200),
        line('POST', '/api/v1/user/login', 422),
      ]);
      const everything = raw.join('');
      for (const leaked of [
        password,
        'wrong password',
        email,
        'query-secret-value',
        'another-secret',
        'secret-next',
        'Bearer',
        'eyJ',
        'authorization',
        'x-forwarded-for',
        client.ip,
      ])
        expect(everything).not.toContain(leaked);
    } finally {
      await server.close();
    }
  });
});

describe('X-Request-Id', () => {
  const failing = (server: TestServer) =>
    jest.spyOn(server.app.get(UsersService), 'profile').mockImplementation(() => {
      throw new Error('disk on fire');
    });

  it('reuses a sane id from a trusted proxy in the header, the logs and a 500 body', async () => {
    const { logger, entries } = jsonCapture();
    const server = await startServer(undefined, { LOG_FORMAT: 'json' }, logger);
    const spy = failing(server);
    try {
      const { client } = await newMember(server);
      const id = 'edge-7f3a.19:req_X';
      const res = await client.get('user/profile', { 'X-Request-Id': id });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toBe(id);
      expect(res.body).toEqual({ message: 'Something went wrong. Please try again later.', request_id: id });

      const mine = entries().filter((entry) => JSON.stringify(entry).includes(id));
      expect(mine).toEqual([
        expect.objectContaining({
          level: 'error',
          context: 'Error',
          msg: `GET /api/v1/user/profile failed (request ${id})`,
          stack: expect.stringContaining('disk on fire'),
        }),
        expect.objectContaining({
          context: 'HTTP',
          path: '/api/v1/user/profile',
          status: 500,
          request_id: id,
        }),
      ]);
    } finally {
      spy.mockRestore();
      await server.close();
    }
  });

  describe('from a trusted peer', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(() => server.close());
    const idFor = async (sent: string) =>
      (await fetch(server.baseUrl + '/api/v1/health', { headers: { 'X-Request-Id': sent } })).headers.get(
        'x-request-id',
      );

    it.each([
      ['too long', 'a'.repeat(129)],
      ['with a space', 'edge 42'],
      ['with markup', '<script>'],
      ['two ids in one (a repeated header)', 'one, two'],
    ])('replaces an id %s with a new UUID', async (_name, id) => {
      expect(await idFor(id)).toMatch(UUID);
    });

    it('accepts 128 characters', async () => {
      expect(await idFor('a'.repeat(128))).toBe('a'.repeat(128));
    });
  });

  it('ignores the id of a peer that TRUST_PROXY does not trust', async () => {
    const server = await startServer(undefined, { TRUST_PROXY: 'false' });
    const spy = failing(server);
    try {
      const { client } = await newMember(server);
      const res = await client.get('user/profile', { 'X-Request-Id': 'chosen-by-the-client' });
      expect(res.status).toBe(500);
      expect(res.headers.get('x-request-id')).toMatch(UUID);
      expect(res.body.request_id).toBe(res.headers.get('x-request-id'));
    } finally {
      spy.mockRestore();
      await server.close();
    }
  });
});

describe('The built server with LOG_FORMAT=json', () => {
  let storage: string;

  beforeAll(assertBuilt);
  beforeEach(() => {
    storage = mkdtempSync(join(tmpdir(), 'lingonovel-logs-'));
  });
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  it('writes only JSON lines, boot included; its pages carry the hashed page policy', async () => {
    const { child, url, output } = await boot({ STORAGE_DIR: storage, LOG_FORMAT: 'json' });
    let home: Response;
    try {
      home = await fetch(url + '/');
      await fetch(url + '/api/v1/health?token=query-secret-value');
    } finally {
      await stop(child);
    }
    expect(home.status).toBe(200);
    const csp = home.headers.get('content-security-policy')!;
    expect(csp.replace(/(?: 'sha256-[A-Za-z0-9+/]+=*')+;/, ';')).toBe(PAGE_CSP("'self'"));
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
    expect(home.headers.get('strict-transport-security')).toBeNull();

    const entries = output()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 'info',
          context: 'Lingonovel',
          msg: expect.stringMatching(/^Listening on /),
        }),
        expect.objectContaining({ context: 'HTTP', method: 'GET', path: '/', status: 200 }),
        expect.objectContaining({ context: 'HTTP', method: 'GET', path: '/api/v1/health', status: 200 }),
      ]),
    );
    expect(entries.filter((entry) => entry.context === 'InstanceLoader')).toEqual([]);
    expect(output()).not.toContain('query-secret-value');
  });

  it('refuses a LOG_FORMAT it does not know, with one clear line', () => {
    const result = run({ STORAGE_DIR: storage, LOG_FORMAT: 'xml' });
    expect(result.status).toBe(78);
    expect(result.stderr.trim()).toBe('Lingonovel cannot start: LOG_FORMAT must be text or json, got "xml"');
  });
});
