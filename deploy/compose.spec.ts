import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../server/platform/config';

/**
 * Issue 35 (docs/deploy.md, "In a container"): each of compose.yaml's three setups is a valid Compose file
 * (Debian's docker-compose reads and resolves it) whose Lingonovel service the server accepts without a
 * warning, on the database and media store the setup names. The image itself: deploy/test-container.sh.
 */
const ROOT = join(__dirname, '..');
const SECRETS = {
  POSTGRES_PASSWORD: 'pg-secret',
  S3_ACCESS_KEY_ID: 'store-key',
  S3_SECRET_ACCESS_KEY: 'store-secret',
};

interface Service {
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  build?: { context: string };
}

function resolved(files: string[], env: Record<string, string> = SECRETS): Record<string, Service> {
  const result = spawnSync('docker-compose', [...files.flatMap((file) => ['-f', file]), 'config'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
  expect(result.error).toBeUndefined();
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return (parse(result.stdout) as { services: Record<string, Service> }).services;
}

/** The configuration the server makes of the service's environment, in a folder of its own. */
function configOf(service: Service) {
  const storage = mkdtempSync(join(tmpdir(), 'lingonovel-compose-'));
  try {
    return loadConfig({ ...service.environment, STORAGE_DIR: storage });
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}

const POSTGRES = ['compose.yaml', 'deploy/compose.postgres.yaml'];
const S3 = [...POSTGRES, 'deploy/compose.s3.yaml'];

describe('compose.yaml', () => {
  it('runs one container on SQLite with its data in a volume, built from the Dockerfile', () => {
    const services = resolved(['compose.yaml'], {});
    expect(Object.keys(services)).toEqual(['lingonovel']);
    const app = services.lingonovel;
    expect(app.build?.context).toBe(ROOT);
    expect(app.volumes).toEqual(['lingonovel-data:/data:rw']);
    const config = configOf(app);
    expect(config.databaseUrl).toBeNull();
    expect(config.mediaStore.kind).toBe('local');
    expect(config.warnings).toEqual([]);
  });

  it('with deploy/compose.postgres.yaml, runs on PostgreSQL once it is healthy', () => {
    const services = resolved(POSTGRES);
    expect(Object.keys(services).sort()).toEqual(['lingonovel', 'postgres']);
    const app = services.lingonovel;
    expect(app.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    const config = configOf(app);
    expect(config.databaseUrl).toBe('postgres://lingonovel:pg-secret@postgres:5432/lingonovel');
    expect(config.mediaStore.kind).toBe('local');
    expect(config.warnings).toEqual([]);
  });

  it('with deploy/compose.s3.yaml too, keeps media in the bucket it makes first', () => {
    const services = resolved(S3);
    expect(Object.keys(services).sort()).toEqual(['lingonovel', 'minio', 'minio-bucket', 'postgres']);
    const app = services.lingonovel;
    expect(app.depends_on?.['minio-bucket']).toEqual({ condition: 'service_completed_successfully' });
    const config = configOf(app);
    expect(config.mediaStore).toMatchObject({
      kind: 's3',
      bucket: 'lingonovel',
      endpoint: 'http://minio:9000',
    });
    expect(config.warnings).toEqual([]);
  });

  it('refuses to resolve the PostgreSQL setup without its password', () => {
    const result = spawnSync(
      'docker-compose',
      ['-f', 'compose.yaml', '-f', 'deploy/compose.postgres.yaml', 'config'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('set POSTGRES_PASSWORD in .env');
  });
});
