import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { readMediaStoreConfig, type MediaStoreConfig } from './media/store-config';

/** Everything the server reads from its environment, validated once at boot. */
export interface AppConfig {
  port: number;
  host: string;
  storageDir: string;
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
  /** Where media and staged imports live: STORAGE_DIR or an S3 bucket (server/media/store-config.ts). */
  mediaStore: MediaStoreConfig;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {}

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

/** A configured secret must be strong; an unset one is generated once and kept beside the data. */
function readJwtSecret(env: Env, storageDir: string): string {
  const configured = env.JWT_SECRET;
  if (configured !== undefined && configured !== '') {
    if (configured.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
    return configured;
  }
  const file = join(storageDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  return secret;
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = readPort(env);
  const host = env.HOST?.trim() || '127.0.0.1';
  const rawStorage = env.STORAGE_DIR?.trim() || './storage';
  const storageDir = isAbsolute(rawStorage) ? rawStorage : resolve(process.cwd(), rawStorage);
  try {
    mkdirSync(storageDir, { recursive: true });
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
  return {
    port,
    host,
    storageDir,
    publicUrl,
    jwtSecret: readJwtSecret(env, storageDir),
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
    mediaStore: readMediaStoreConfig(env),
  };
}
