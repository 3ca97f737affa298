import { DataSource } from 'typeorm';
import { startServer, type TestServer } from './harness';

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

  it('answers 503, naming the database, once the database is gone; liveness stays cheap and ok', async () => {
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
