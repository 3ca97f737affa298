import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ReadinessChecks } from '../health/readiness-checks';
import { MEDIA_STORE } from '../platform/media/store/create-stores';
import type { MediaStore } from '../platform/media/store/media-store';
import { mediaFiles } from './fixtures';
import { startServer, type TestServer } from './harness';
import { eventually } from './eventually';

describe('Readiness for a load balancer', () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer()));
  afterAll(() => server.close().catch(() => undefined));

  it('answers ready when the database and the media store answer', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/health/ready`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok', media: 'ok' } });
  });

  it('probes the media store with a write, a read and a delete, leaving nothing; /readyz and /healthz answer the same', async () => {
    const before = await mediaFiles(server);
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', media: 'ok' } });
    const live = await fetch(`${server.baseUrl}/healthz?from=probe`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
    expect(await mediaFiles(server)).toEqual(before);
    expect(
      readdirSync(join(server.config.storageDir, 'tmp')).filter((name) => name.startsWith('probe-')),
    ).toEqual([]);
  });

  it('answers 503, naming the media store, when it refuses a write (a folder that cannot take one)', async () => {
    // A folder store on both passes: the probe's folder is a file, as a full or broken disk refuses it.
    const local = await startServer(undefined, { MEDIA_STORE: 'local' });
    try {
      writeFileSync(join(local.config.storageDir, 'media', 'probes'), 'not a folder');
      const res = await fetch(`${local.baseUrl}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        message: 'Not ready: media unavailable.',
        checks: { database: 'ok', media: 'unavailable' },
      });
    } finally {
      await local.close();
    }
  });

  it('shares one probe among the requests that arrive while it runs and for reuseMs after', async () => {
    const store = server.app.get<symbol, MediaStore>(MEDIA_STORE);
    const checks = server.app.get(ReadinessChecks);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const original = store.put.bind(store);
    // The probe's write waits until every request has asked, however slowly a loaded machine sends them.
    const put = jest.spyOn(store, 'put').mockImplementation(async (...args) => {
      await gate;
      return original(...args);
    });
    const run = jest.spyOn(checks, 'run');
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // the earlier tests' answer has expired
      const answers = Promise.all(Array.from({ length: 10 }, () => fetch(`${server.baseUrl}/readyz`)));
      answers.catch(() => undefined); // awaited below; a failure before then fails the test, not the worker
      await eventually(() => run.mock.calls.length >= 10, 'the ten requests to ask');
      // A request after the answer, within reuseMs (longer here than its second: a slow machine's moment).
      checks.reuseMs = 60_000;
      release();
      expect((await answers).map((res) => res.status)).toEqual(Array(10).fill(200));
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      expect(put).toHaveBeenCalledTimes(1);
    } finally {
      release();
      put.mockRestore();
      run.mockRestore();
      checks.reuseMs = 1_000;
    }
  });

  it('answers 503, naming the database, once the database is gone; liveness stays cheap and ok', async () => {
    // At once, not after the shared answer's second.
    server.app.get(ReadinessChecks).reuseMs = 0;
    await server.app.get(DataSource).destroy();
    const res = await fetch(`${server.baseUrl}/api/v1/health/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      message: 'Not ready: database unavailable.',
      checks: { database: 'unavailable', media: 'ok' },
    });
    expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  const attempts = async (server: TestServer, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await fetch(`${server.baseUrl}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `203.0.113.${i + 1}` },
        body: JSON.stringify({ email: `nobody-${i}@example.org`, password: 'not a password' }),
      });
      statuses.push(res.status);
    }
    return statuses;
  };

  it('believes a trusted proxy: each forwarded address gets its own rate-limit bucket', async () => {
    const server = await startServer(undefined, { TRUST_PROXY: '127.0.0.1' });
    try {
      expect(await attempts(server, 31)).not.toContain(429);
    } finally {
      await server.close();
    }
  });

  it('ignores X-Forwarded-For from a peer it does not trust: the peer is the client', async () => {
    const server = await startServer(undefined, { TRUST_PROXY: 'false' });
    try {
      const statuses = await attempts(server, 31);
      expect(statuses.slice(0, 30)).not.toContain(429);
      expect(statuses[30]).toBe(429);
    } finally {
      await server.close();
    }
  });
});
