import { ConfigError } from '../config-error';

type Env = Record<string, string | undefined>;

export interface S3StoreConfig {
  /** null: AWS's own endpoint for the region. */
  endpoint: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** Where media and staged imports are kept: STORAGE_DIR (the default) or an S3-compatible bucket. */
export type MediaStoreConfig = { kind: 'local' } | ({ kind: 's3' } & S3StoreConfig);

const value = (env: Env, name: string) => env[name]?.trim() || null;

function required(env: Env, name: string): string {
  const found = value(env, name);
  if (!found) throw new ConfigError(`${name} is required when MEDIA_STORE=s3`);
  return found;
}

function endpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`S3_ENDPOINT must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`S3_ENDPOINT must start with http:// or https://, got "${raw}"`);
  return url.toString().replace(/\/+$/, '');
}

function forcePathStyle(env: Env): boolean {
  const raw = value(env, 'S3_FORCE_PATH_STYLE')?.toLowerCase();
  if (!raw) return false;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false, got "${env.S3_FORCE_PATH_STYLE}"`);
}

/** Reads MEDIA_STORE and the S3_* variables; a bad value stops the boot with one clear line. */
export function readMediaStoreConfig(env: Env): MediaStoreConfig {
  const kind = value(env, 'MEDIA_STORE')?.toLowerCase() ?? 'local';
  if (kind === 'local') return { kind };
  if (kind !== 's3') throw new ConfigError(`MEDIA_STORE must be local or s3, got "${env.MEDIA_STORE}"`);
  const bucket = required(env, 'S3_BUCKET');
  // Bucket naming rules (3–63 lower-case letters, digits, dots, dashes), so a typo fails here, not later.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new ConfigError(`S3_BUCKET must be a valid bucket name, got "${bucket}"`);
  const rawEndpoint = value(env, 'S3_ENDPOINT');
  return {
    kind,
    endpoint: rawEndpoint ? endpoint(rawEndpoint) : null,
    region: value(env, 'S3_REGION') ?? 'us-east-1',
    bucket,
    accessKeyId: required(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: required(env, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: forcePathStyle(env),
  };
}
