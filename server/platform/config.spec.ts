import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config';
import { ConfigError } from './config-error';
import { applyEnvFile } from './env-file';

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

describe('settings from a file and ignored settings', () => {
  it('lists in .env.example exactly the variables loadConfig reads', () => {
    const read = new Set<string>();
    // Every branch that reads more: the S3 store and Stripe set, so their variables are asked for too.
    const values: Record<string, string> = {
      STORAGE_DIR: storage(),
      MEDIA_STORE: 's3',
      S3_BUCKET: 'books',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PRICE_ID: 'price_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    };
    const env = new Proxy(values, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    });
    loadConfig(env);
    // ENV_FILE is read from the real environment only (platform/env-file.ts), before the rest.
    read.add('ENV_FILE');
    const example = readFileSync(join(__dirname, '..', '..', '.env.example'), 'utf8');
    const listed = [...example.matchAll(/^# ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.sort()).toEqual([...read].sort());
  });

  it('fills what the real environment leaves unset from .env or ENV_FILE, and refuses a named file that is missing', () => {
    const dir = storage();
    writeFileSync(
      join(dir, '.env'),
      '# a comment\nPORT=4123\nPUBLIC_URL="https://books.example.org"\nexport HOST=0.0.0.0\nMAIL_FROM=Books <b@example.org> # the sender\n',
    );
    const env: NodeJS.ProcessEnv = { PORT: '5000' };
    expect(applyEnvFile(env, dir)).toBe(join(dir, '.env'));
    expect(env.PORT).toBe('5000');
    expect(env.PUBLIC_URL).toBe('https://books.example.org');
    expect(env.MAIL_FROM).toBe('Books <b@example.org>');
    expect(applyEnvFile({}, storage())).toBeNull();
    writeFileSync(join(dir, 'lingonovel.env'), 'PAGE_CACHE_MB=32\n');
    const named: NodeJS.ProcessEnv = { ENV_FILE: 'lingonovel.env' };
    expect(applyEnvFile(named, dir)).toBe(join(dir, 'lingonovel.env'));
    expect(named.PAGE_CACHE_MB).toBe('32');
    expect(() => applyEnvFile({ ENV_FILE: 'missing.env' }, dir)).toThrow(
      new ConfigError(`ENV_FILE names ${join(dir, 'missing.env')}, which does not exist`),
    );
  });

  it('warns of S3 settings without MEDIA_STORE=s3, and refuses them with STRICT_CONFIG', () => {
    const env = { STORAGE_DIR: storage(), S3_BUCKET: 'books', S3_ENDPOINT: 'http://127.0.0.1:9000' };
    const config = loadConfig(env);
    expect(config.mediaStore.kind).toBe('local');
    expect(config.warnings).toEqual([
      'S3_BUCKET, S3_ENDPOINT are set but MEDIA_STORE is not s3: media are kept in STORAGE_DIR. Set MEDIA_STORE=s3 to use the bucket, or remove them.',
    ]);
    expect(() => loadConfig({ ...env, STRICT_CONFIG: 'true' })).toThrow(
      /S3_BUCKET, S3_ENDPOINT are set but MEDIA_STORE is not s3/,
    );
    expect(
      loadConfig({ ...env, MEDIA_STORE: 's3', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).warnings,
    ).toEqual([]);
    expect(() => loadConfig({ STORAGE_DIR: storage(), STRICT_CONFIG: 'maybe' })).toThrow(
      'STRICT_CONFIG must be true or false, got "maybe"',
    );
  });
});
