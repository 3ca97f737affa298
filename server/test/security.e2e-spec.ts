import { ModulesContainer } from '@nestjs/core';
import { PATH_METADATA } from '@nestjs/common/constants';
import type { Type } from '@nestjs/common';
import { ROLES } from '../accounts/auth/auth.decorators';
import { UserType } from '../accounts/users/user.entity';
import jwt from 'jsonwebtoken';
import { ApiClient, newAdmin, newMember } from './api-client';
import { controlClock, MINUTE } from './clock';
import { startServer, type TestServer } from './harness';
import { registeredRoutes } from './routes';

/** Routes open to visitors. A new public route must be added here on purpose. */
const PUBLIC_ROUTES = [
  'GET /api/v1/health',
  'GET /api/v1/health/ready',
  'GET /api/v1/openapi.json',
  'GET /api/v1/guest/list-book',
  'GET /api/v1/guest/books',
  'GET /api/v1/guest/book-detail/:bookCode',
  'GET /api/v1/guest/book/:bookCode/chapters',
  'GET /api/v1/guest/book/:bookCode/chapter/:chapterNo',
  'POST /api/v1/user/signup',
  'POST /api/v1/user/login',
  'GET /api/v1/user/password-recovery-token',
  'POST /api/v1/user/password-recovery-token',
  'GET /api/v1/user/verify-password-recovery-token',
  'POST /api/v1/user/verify-password-recovery-token',
  'GET /api/v1/user/reset-password-using-token',
  'POST /api/v1/user/reset-password-using-token',
  'POST /api/v1/billing/webhook',
  // Signed URLs: the signature is the permission (an <audio> element sends no token).
  'GET /api/v1/import-preview/:importId/:n',
  // A download button's link (a browser following a link sends no token).
  'GET /api/v1/book-export/:bookCode',
  // Downloads (docs/formats.md): a visitor gets the sample; a bearer token, an app password (HTTP Basic,
  // these routes and OPDS only) or a signed link gets what that member may read.
  'GET /api/v1/downloads/:bookCode/epub',
  'GET /api/v1/downloads/:bookCode/audiobook',
  'GET /api/v1/downloads/:bookCode/chapter/:chapterNo/subtitles.vtt',
  'GET /api/v1/downloads/:bookCode/chapter/:chapterNo/subtitles.lrc',
  // OPDS feeds (docs/formats.md "OPDS 1.2"): a visitor's acquisition links are samples; with a token or
  // an app password, what that member may read.
  'GET /api/v1/opds',
  'GET /api/v1/opds/opensearch.xml',
  'GET /api/v1/opds/languages',
  'GET /api/v1/opds/languages/:lang',
  'GET /api/v1/opds/levels',
  'GET /api/v1/opds/levels/:cefr',
  'GET /api/v1/opds/books',
  'GET /api/v1/opds/new',
  'GET /api/v1/opds/search',
  'GET /api/v1/opds/covers/:bookCode/:width.jpg',
  // A word's lookup (docs/lookup.md): anyone may look a word up; a member's token picks the definitions'
  // language, and a phrase of a locked chapter is refused (403) whoever asks.
  'GET /api/v1/lookup',
  // A downloaded chapter's lookups: a free chapter's for anyone, a locked one's for who may read it.
  'GET /api/v1/lookup/chapter',
  // The first run (docs/deploy.md): the setup code is the permission, and it is gone once an
  // administrator exists (409 after).
  'GET /api/v1/setup',
  'POST /api/v1/setup',
];

const concrete = (path: string) => path.replace(/:\w+/g, '1').replace(/^\/api\/v1\//, '');

describe('Route matrix', () => {
  let server: TestServer;
  let member: ApiClient;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    member = (await newMember(server)).client;
    admin = (await newAdmin(server)).client;
  });
  afterAll(() => server.close());

  it('opens exactly the public routes to visitors, and answers 401 everywhere else', async () => {
    const routes = registeredRoutes(server);
    expect(routes.length).toBeGreaterThan(PUBLIC_ROUTES.length);
    const open: string[] = [];
    for (const { method, path } of routes) {
      const res = await new ApiClient(server).request(
        method,
        concrete(path),
        method === 'GET' ? undefined : {},
      );
      if (res.status === 401)
        expect(res.body).toEqual({ message: 'Your session has expired or is not valid. Please sign in.' });
      else open.push(`${method} ${path}`);
    }
    expect(open.sort()).toEqual([...PUBLIC_ROUTES].sort());
    // Practice's routes (docs/practice.md) are members' own: served, and refused to visitors above.
    const served = routes.map((route) => `${route.method} ${route.path}`);
    for (const route of [
      'POST /api/v1/user/dictation',
      'GET /api/v1/user/dictation',
      'PUT /api/v1/user/marks',
      'GET /api/v1/user/marks',
    ])
      expect(served).toContain(route);
  });

  it('answers 401 to a malformed or forged token on every private route', async () => {
    const forged = jwt.sign({ ver: 0 }, 'not-the-server-secret-but-long-enough-0123', {
      algorithm: 'HS256',
      subject: '1',
    });
    for (const { method, path } of registeredRoutes(server)) {
      if (PUBLIC_ROUTES.includes(`${method} ${path}`)) continue;
      for (const token of ['garbage', forged]) {
        const res = await new ApiClient(server, token).request(
          method,
          concrete(path),
          method === 'GET' ? undefined : {},
        );
        expect([method, path, res.status]).toEqual([method, path, 401]);
      }
    }
  });

  it('answers 403 to a member on every admin route, and lets an administrator through', async () => {
    const adminRoutes = registeredRoutes(server).filter((r) => r.path.startsWith('/api/v1/admin'));
    expect(adminRoutes.length).toBeGreaterThan(0);
    for (const { method, path } of adminRoutes) {
      const res = await member.request(method, concrete(path), method === 'GET' ? undefined : {});
      expect([method, path, res.status, res.body]).toEqual([
        method,
        path,
        403,
        { message: 'You do not have permission to do this.' },
      ]);
      const allowed = await admin.request(method, concrete(path), method === 'GET' ? undefined : {});
      expect([method, path, [401, 403].includes(allowed.status)]).toEqual([method, path, false]);
    }
  });

  it('marks every handler served under /admin with @AdminOnly(), on its controller or itself', () => {
    // Each handler's own full path, from the same metadata Nest routes by: a route put under /admin from
    // any controller, with or without a leading slash, is found.
    const join = (...parts: Array<string | string[] | undefined>) =>
      `/${parts
        .map((part) => String(part ?? '').replace(/^\/+|\/+$/g, ''))
        .filter(Boolean)
        .join('/')}`;
    const underAdmin: string[] = [];
    for (const module of server.app.get(ModulesContainer).values())
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as Type;
        const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined;
        for (const name of Object.getOwnPropertyNames(controller.prototype)) {
          const handler = (controller.prototype as Record<string, unknown>)[name];
          if (typeof handler !== 'function' || name === 'constructor') continue;
          const own = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
          if (own === undefined) continue;
          const path = join('api/v1', prefix, own);
          if (!/^\/api\/v1\/admin(\/|$)/i.test(path)) continue;
          underAdmin.push(path);
          const roles =
            (Reflect.getMetadata(ROLES, handler) as unknown) ??
            (Reflect.getMetadata(ROLES, controller) as unknown);
          expect([controller.name, name, roles]).toEqual([controller.name, name, [UserType.Admin]]);
        }
      }
    // The walk found every /admin route Express serves.
    const served = registeredRoutes(server).filter((r) => r.path.startsWith('/api/v1/admin'));
    expect(served.length).toBeGreaterThan(20);
    for (const { path } of served) expect(underAdmin).toContain(path.replace(/\/$/, ''));
  });

  it('shows an administrator the catalogue counts', async () => {
    const res = await admin.get('admin/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { books: 0, chapters: 0, phrases: 0, members: 1 } });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('Session tokens', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('are HS256 JWTs that expire after 7 days', async () => {
    const clock = controlClock(server);
    try {
      const { client } = await newMember(server);
      const token = (client as unknown as { token: string }).token;
      const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { alg: string };
      const claims = jwt.decode(token) as jwt.JwtPayload;
      expect(header.alg).toBe('HS256');
      expect(claims.exp! - claims.iat!).toBe(7 * 24 * 60 * 60);
      clock.advance(7 * 24 * 60 * MINUTE - MINUTE);
      expect((await client.get('user/profile')).status).toBe(200);
      clock.advance(2 * MINUTE);
      expect((await client.get('user/profile')).status).toBe(401);
    } finally {
      clock.restore();
    }
  });

  it('refuses alg none and tampered tokens', async () => {
    const { client } = await newMember(server);
    const token = (client as unknown as { token: string }).token;
    const [, payload, signature] = token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect((await client.withToken(none).get('user/profile')).status).toBe(401);

    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as jwt.JwtPayload;
    const promoted = Buffer.from(JSON.stringify({ ...claims, sub: '999' })).toString('base64url');
    expect(
      (await client.withToken(`${token.split('.')[0]}.${promoted}.${signature}`).get('user/profile')).status,
    ).toBe(401);

    const hs512 = jwt.sign({ ver: 0 }, server.config.jwtSecret, {
      algorithm: 'HS512',
      subject: String(claims.sub),
    });
    expect((await client.withToken(hs512).get('user/profile')).status).toBe(401);
  });
});

describe('Brute-force protection', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close());

  it('locks an email for 15 minutes after 5 failed logins, from any address', async () => {
    const clock = controlClock(server);
    try {
      const { email, password } = await newMember(server);
      for (let i = 0; i < 5; i++) {
        expect(
          (await new ApiClient(server).post('user/login', { email, password: 'wrong password' })).status,
        ).toBe(422);
      }
      const locked = await new ApiClient(server).post('user/login', { email, password });
      expect(locked.status).toBe(429);
      expect(locked.body).toEqual({
        message:
          'Too many failed sign-in attempts for this account. Please try again later or reset your password.',
      });
      expect(Number(locked.headers.get('retry-after'))).toBe(15 * 60);

      clock.advance(14 * MINUTE);
      const stillLocked = await new ApiClient(server).post('user/login', { email, password });
      expect(stillLocked.status).toBe(429);
      expect(Number(stillLocked.headers.get('retry-after'))).toBe(60);

      clock.advance(MINUTE + 1000);
      expect((await new ApiClient(server).post('user/login', { email, password })).status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('counts guesses sent all at once', async () => {
    const { email } = await newMember(server);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        new ApiClient(server).post('user/login', { email, password: 'wrong password' }),
      ),
    );
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(7);
  });

  it('limits one address to 30 requests a minute per group of calls', async () => {
    const clock = controlClock(server);
    try {
      const client = new ApiClient(server);
      for (let i = 0; i < 30; i++) {
        expect(
          (await client.post('user/login', { email: `n${i}@example.org`, password: 'whatever1' })).status,
        ).toBe(422);
      }
      const limited = await client.post('user/login', { email: 'n@example.org', password: 'whatever1' });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ message: 'Too many requests. Please try again later.' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

      // Other calls and other addresses are not affected.
      expect((await client.post('user/signup', {})).status).toBe(422);
      expect(
        (await new ApiClient(server).post('user/login', { email: 'n@example.org', password: 'whatever1' }))
          .status,
      ).toBe(422);

      clock.advance(MINUTE);
      expect(
        (await client.post('user/login', { email: 'n@example.org', password: 'whatever1' })).status,
      ).toBe(422);
    } finally {
      clock.restore();
    }
  });
});

describe('Request log', () => {
  it('has one line per request without query strings, bodies or tokens', async () => {
    const lines: string[] = [];
    const capture = {
      log: (m: unknown) => lines.push(String(m)),
      error: (m: unknown) => lines.push(String(m)),
      warn: (m: unknown) => lines.push(String(m)),
    };
    const server = await startServer(undefined, {}, capture);
    try {
      const { client, password } = await newMember(server);
      const secret = 'query secret password';
      await client.get(
        `user/reset-password-using-token?password=${encodeURIComponent(secret)}&confirm_password=x&verification_token=abc`,
      );
      await client.get('user/profile');
      const requestLines = lines.filter((line) => /^(GET|POST|PUT|DELETE) /.test(line));
      expect(requestLines).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^GET \/api\/v1\/user\/reset-password-using-token 422 \d+\.\dms id=[0-9a-f-]{36}$/,
          ),
          expect.stringMatching(/^GET \/api\/v1\/user\/profile 200 \d+\.\dms id=[0-9a-f-]{36}$/),
          expect.stringMatching(/^POST \/api\/v1\/user\/login 200 /),
        ]),
      );
      const everything = lines.join('\n');
      for (const leaked of [secret, encodeURIComponent(secret), password, 'Bearer', 'eyJ'])
        expect(everything).not.toContain(leaked);
    } finally {
      await server.close();
    }
  });
});
