import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';

const storage = () => mkdtempSync(join(tmpdir(), 'lingonovel-config-'));

describe(loadConfig.name, () => {
  it('uses safe defaults', () => {
    const dir = storage();
    const config = loadConfig({ STORAGE_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.smtpUrl).toBeNull();
    expect(config.stripe.secretKey).toBeNull();
  });

  it('leaves an unset JWT secret to the database (shared by every instance), writing no file', () => {
    const dir = storage();
    expect(loadConfig({ STORAGE_DIR: dir }).jwtSecret).toBe('');
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(false);
  });

  it('reads TRUST_PROXY as a hop count or a list of addresses, and refuses anything else', () => {
    const dir = storage();
    const trust = (value?: string) => loadConfig({ STORAGE_DIR: dir, TRUST_PROXY: value }).trustProxy;
    expect(trust()).toEqual(['loopback']);
    expect(trust('2')).toBe(2);
    expect(trust('false')).toBe(0);
    expect(trust('10.0.0.0/8, 192.168.1.7,loopback, ::1')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
      '::1',
    ]);
    expect(() => trust('true')).toThrow(
      /TRUST_PROXY must be a hop count or a comma-separated list .* "true" is none/,
    );
    expect(() => trust('10.0.0.0/33')).toThrow(/"10.0.0.0\/33" is none of these/);
    expect(() => trust('proxy.internal')).toThrow(/"proxy.internal" is none of these/);
    expect(() => trust('99')).toThrow(/TRUST_PROXY must be a hop count from 0 to 10/);
  });

  it('accepts only PostgreSQL URLs for DATABASE_URL, without echoing a password', () => {
    const dir = storage();
    expect(loadConfig({ STORAGE_DIR: dir }).databaseUrl).toBeNull();
    const url = 'postgres://app:secret@db.internal:5432/lingonovel';
    expect(loadConfig({ STORAGE_DIR: dir, DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(() => loadConfig({ STORAGE_DIR: dir, DATABASE_URL: 'mysql://app:secret@db/x' })).toThrow(
      new ConfigError('DATABASE_URL must start with postgres:// (PostgreSQL), got "mysql://…"'),
    );
    expect(() => loadConfig({ STORAGE_DIR: dir, DATABASE_URL: 'postgres://app:secret@db.internal' })).toThrow(
      /must name a host and a database/,
    );
    expect(() => loadConfig({ STORAGE_DIR: dir, DATABASE_URL: 'not a url' })).toThrow(/must be a URL/);
    expect(() => loadConfig({ STORAGE_DIR: dir, DATABASE_POOL_SIZE: '0' })).toThrow(
      /DATABASE_POOL_SIZE must be a whole number from 1 to 1000/,
    );
  });

  it('refuses a short JWT secret', () => {
    expect(() => loadConfig({ STORAGE_DIR: storage(), JWT_SECRET: 'too-short' })).toThrow(
      new ConfigError('JWT_SECRET must be at least 32 characters long'),
    );
  });

  it('refuses bad values with one clear message each', () => {
    const dir = storage();
    expect(() => loadConfig({ STORAGE_DIR: dir, PORT: 'eighty' })).toThrow(/PORT must be a whole number/);
    expect(() => loadConfig({ STORAGE_DIR: dir, PUBLIC_URL: 'example.org' })).toThrow(
      /PUBLIC_URL must be an absolute/,
    );
    expect(() => loadConfig({ STORAGE_DIR: dir, PUBLIC_URL: 'ftp://example.org' })).toThrow(
      /PUBLIC_URL must start/,
    );
    expect(() => loadConfig({ STORAGE_DIR: dir, SMTP_URL: 'mail.example.org' })).toThrow(
      /SMTP_URL must start/,
    );
    expect(() => loadConfig({ STORAGE_DIR: dir, REVIEW_FUZZ: 'maybe' })).toThrow(
      'REVIEW_FUZZ must be true or false, got "maybe"',
    );
  });

  it('fuzzes review intervals unless told not to', () => {
    const dir = storage();
    expect(loadConfig({ STORAGE_DIR: dir }).reviewFuzz).toBe(true);
    expect(loadConfig({ STORAGE_DIR: dir, REVIEW_FUZZ: 'false' }).reviewFuzz).toBe(false);
    expect(loadConfig({ STORAGE_DIR: dir, REVIEW_FUZZ: '1' }).reviewFuzz).toBe(true);
  });

  it('logs readable lines unless LOG_FORMAT asks for JSON, and refuses any other format', () => {
    const dir = storage();
    const format = (value?: string) => loadConfig({ STORAGE_DIR: dir, LOG_FORMAT: value }).logFormat;
    expect(format()).toBe('text');
    expect(format(' ')).toBe('text');
    expect(format('text')).toBe('text');
    expect(format('json')).toBe('json');
    expect(format(' JSON ')).toBe('json');
    expect(() => format('pretty')).toThrow(new ConfigError('LOG_FORMAT must be text or json, got "pretty"'));
  });

  it('derives the public URL from the port and drops a trailing slash', () => {
    const dir = storage();
    expect(loadConfig({ STORAGE_DIR: dir, PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ STORAGE_DIR: dir, PUBLIC_URL: 'https://books.example.org/' }).publicUrl).toBe(
      'https://books.example.org',
    );
  });
});

describe('Stripe settings', () => {
  it('are all or nothing', () => {
    const dir = storage();
    expect(() => loadConfig({ STORAGE_DIR: dir, STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
      'STRIPE_PRICE_ID is required when STRIPE_SECRET_KEY is set',
    );
    expect(() =>
      loadConfig({ STORAGE_DIR: dir, STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_ID: 'price_1' }),
    ).toThrow('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
    const config = loadConfig({
      STORAGE_DIR: dir,
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_PRICE_ID: 'price_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_API_BASE: 'http://127.0.0.1:12111/',
    });
    expect(config.stripe).toEqual({
      secretKey: 'sk_test_1',
      publishableKey: null,
      priceId: 'price_1',
      webhookSecret: 'whsec_1',
      apiBase: 'http://127.0.0.1:12111',
    });
  });
});
