import { mkdirSync } from 'node:fs';
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { applyEnvFile } from './env-file';
import { readMediaStoreConfig, type MediaStoreConfig } from './media/store-config';
import { ConfigError } from './config-error';

/** Everything the server reads from its environment, validated once at boot. */
export interface AppConfig {
  port: number;
  host: string;
  storageDir: string;
  /** PostgreSQL when set (`postgres://user:pass@host:port/db`); else SQLite in `storageDir`. */
  databaseUrl: string | null;
  /**
   * Express's `trust proxy`: which peers' X-Forwarded-For is believed for the client's address (rate
   * limits, logs). A hop count or a list of addresses, subnets and the names loopback, linklocal and
   * uniquelocal. Default `loopback`: only a proxy on this machine.
   */
  trustProxy: number | string[];
  /** PostgreSQL connections per instance (DATABASE_POOL_SIZE, default 10). */
  databasePoolSize: number;
  publicUrl: string;
  jwtSecret: string;
  smtpUrl: string | null;
  mailFrom: string;
  stripe: {
    secretKey: string | null;
    publishableKey: string | null;
    webhookSecret: string | null;
    priceId: string | null;
    apiBase: string | null;
  };
  /** ts-fsrs's fuzz on review intervals (spreads cards learnt together); off in tests, for repeatable dates. */
  reviewFuzz: boolean;
  /** Where media and staged imports live: STORAGE_DIR or an S3 bucket (server/platform/media/store-config.ts). */
  mediaStore: MediaStoreConfig;
  /** `text`: readable lines (the default); `json`: one JSON object per line, for log collectors. */
  logFormat: LogFormat;
  /** Memory the page cache may hold, in MB (PAGE_CACHE_MB, default 64): server/http/page-cache.ts. */
  pageCacheMb: number;
  /**
   * Recordings up to this long (ALIGN_INLINE_SECONDS, default 90) are aligned within the import request;
   * longer ones by a job (server/publishing/imports/alignment-jobs.ts). 0 sends every one to a job.
   */
  alignInlineSeconds: number;
  /** The settings file read at boot (platform/env-file.ts), if any. */
  envFile: string | null;
  /** STRICT_CONFIG: a setting that is ignored or half set stops the boot instead of being warned about. */
  strictConfig: boolean;
  /** What the boot warns about: settings that are set but ignored (see `warnings` below). */
  warnings: string[];
  /** INIT_ADMIN_EMAIL and INIT_ADMIN_PASSWORD: the first administrator, made at boot while none exists. */
  initAdmin: { email: string; password: string } | null;
}

export type LogFormat = 'text' | 'json';

export const APP_CONFIG = Symbol('APP_CONFIG');

type Env = Record<string, string | undefined>;

function readPort(env: Env): number {
  const raw = env.PORT?.trim();
  if (!raw) return 3000;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function readUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must start with http:// or https://, got "${raw}"`);
  }
  return url.toString().replace(/\/+$/, '');
}

/**
 * A configured secret must be strong. Unset, it stays empty here: prepareDatabase() fills it with the
 * generated secret kept in the database, which every instance shares.
 */
function readJwtSecret(env: Env): string {
  const configured = env.JWT_SECRET;
  if (configured === undefined || configured === '') return '';
  if (configured.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
  return configured;
}

/** Only PostgreSQL URLs are accepted; the password is never echoed back in the error. */
function readDatabaseUrl(env: Env): string | null {
  const raw = optional(env, 'DATABASE_URL');
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL must be a URL such as postgres://user:password@host:5432/lingonovel');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new ConfigError(`DATABASE_URL must start with postgres:// (PostgreSQL), got "${url.protocol}//…"`);
  if (!url.hostname || url.pathname.length <= 1)
    throw new ConfigError(
      'DATABASE_URL must name a host and a database, e.g. postgres://user:password@host:5432/lingonovel',
    );
  return raw;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** A hop count, or addresses and subnets; `false` (or 0) trusts no proxy: the peer is the client. */
function readTrustProxy(env: Env): number | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw) return ['loopback'];
  if (raw === 'false') return 0;
  if (/^\d+$/.test(raw)) {
    if (Number(raw) > 10) throw new ConfigError(`TRUST_PROXY must be a hop count from 0 to 10, got "${raw}"`);
    return Number(raw);
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!PROXY_NAMES.has(entry) && (!family || !validBits || extra !== undefined))
      throw new ConfigError(
        `TRUST_PROXY must be a hop count or a comma-separated list of addresses, subnets (10.0.0.0/8) or loopback, linklocal, uniquelocal; "${entry}" is none of these`,
      );
  }
  return entries;
}

function readWholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  return Number(raw);
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function readLogFormat(env: Env): LogFormat {
  const raw = env.LOG_FORMAT?.trim().toLowerCase();
  if (!raw) return 'text';
  if (raw === 'text' || raw === 'json') return raw;
  throw new ConfigError(`LOG_FORMAT must be text or json, got "${env.LOG_FORMAT}"`);
}

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

/** The first administrator from the environment: both variables or neither (docs/deploy.md, "First run"). */
function readInitAdmin(env: Env): { email: string; password: string } | null {
  const email = optional(env, 'INIT_ADMIN_EMAIL');
  const password = env.INIT_ADMIN_PASSWORD ?? '';
  if (!email && !password) return null;
  if (!email || !password)
    throw new ConfigError('INIT_ADMIN_EMAIL and INIT_ADMIN_PASSWORD go together: set both, or neither');
  return { email, password };
}

/** S3 settings that mean nothing unless MEDIA_STORE=s3 (server/platform/media/store-config.ts). */
const S3_VARIABLES = [
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
];

/**
 * Settings that are set but would be ignored: S3 variables without MEDIA_STORE=s3 would serve media from
 * STORAGE_DIR while the operator believes it is in the bucket (covers answering 404). With STRICT_CONFIG
 * they stop the boot.
 */
function ignoredSettings(env: Env, mediaStore: MediaStoreConfig, strict: boolean): string[] {
  const stray = mediaStore.kind === 'local' ? S3_VARIABLES.filter((name) => optional(env, name)) : [];
  if (!stray.length) return [];
  const warning =
    `${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} set but MEDIA_STORE is not s3: media are kept ` +
    'in STORAGE_DIR. Set MEDIA_STORE=s3 to use the bucket, or remove them.';
  if (strict) throw new ConfigError(warning);
  return [warning];
}

/**
 * Reads and checks the settings. From the process's own environment (the default), a `.env` file is read
 * first (platform/env-file.ts): its values fill what the real environment leaves unset.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const envFile = env === process.env ? applyEnvFile(process.env) : null;
  const port = readPort(env);
  const host = env.HOST?.trim() || '127.0.0.1';
  const rawStorage = env.STORAGE_DIR?.trim() || './storage';
  const storageDir = isAbsolute(rawStorage) ? rawStorage : resolve(process.cwd(), rawStorage);
  try {
    // It will hold the database (password hashes, the session secret): a folder we make is ours alone. A
    // folder the operator made keeps the mode they chose.
    mkdirSync(storageDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ConfigError(`STORAGE_DIR "${storageDir}" cannot be created: ${(error as Error).message}`);
  }
  const publicUrl = readUrl('PUBLIC_URL', env.PUBLIC_URL?.trim() || `http://localhost:${port}`);
  const smtpUrl = optional(env, 'SMTP_URL');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
  }
  const apiBase = optional(env, 'STRIPE_API_BASE');
  const stripeSecret = optional(env, 'STRIPE_SECRET_KEY');
  // A half-configured Stripe would take money without ever learning about it: all or nothing.
  if (stripeSecret) {
    for (const name of ['STRIPE_PRICE_ID', 'STRIPE_WEBHOOK_SECRET']) {
      if (!optional(env, name)) throw new ConfigError(`${name} is required when STRIPE_SECRET_KEY is set`);
    }
  }
  const mediaStore = readMediaStoreConfig(env);
  const strictConfig = readBoolean(env, 'STRICT_CONFIG', false);
  const warnings = ignoredSettings(env, mediaStore, strictConfig);
  return {
    initAdmin: readInitAdmin(env),
    port,
    host,
    storageDir,
    databaseUrl: readDatabaseUrl(env),
    trustProxy: readTrustProxy(env),
    databasePoolSize: readWholeNumber(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    pageCacheMb: readWholeNumber(env, 'PAGE_CACHE_MB', 64, 1, 65_536),
    alignInlineSeconds: readWholeNumber(env, 'ALIGN_INLINE_SECONDS', 90, 0, 3_600),
    publicUrl,
    jwtSecret: readJwtSecret(env),
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || `Lingonovel <no-reply@${new URL(publicUrl).hostname}>`,
    stripe: {
      secretKey: stripeSecret,
      publishableKey: optional(env, 'STRIPE_PUBLISHABLE_KEY'),
      webhookSecret: optional(env, 'STRIPE_WEBHOOK_SECRET'),
      priceId: optional(env, 'STRIPE_PRICE_ID'),
      apiBase: apiBase ? readUrl('STRIPE_API_BASE', apiBase) : null,
    },
    reviewFuzz: readBoolean(env, 'REVIEW_FUZZ', true),
    mediaStore,
    logFormat: readLogFormat(env),
    envFile,
    strictConfig,
    warnings,
  };
}
