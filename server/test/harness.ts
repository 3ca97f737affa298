import 'reflect-metadata';
import type { LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type AppConfig } from '../platform/config';
import { createApp } from '../http/create-app';
import { databaseUrlFor } from './database';
import { startS3, type TestS3 } from './s3';

export interface TestServer {
  app: NestExpressApplication;
  config: AppConfig;
  baseUrl: string;
  storageDir: string;
  /** The S3 server behind the media store, when the test runs on one (TEST_MEDIA_STORE=s3). */
  s3: TestS3 | null;
  /** Stops the server; pass `keep` to leave the storage folder for a restart on the same data. */
  close(keep?: boolean): Promise<void>;
}

export function tempStorage(): string {
  return mkdtempSync(join(tmpdir(), 'lingonovel-test-'));
}

/** Boots the real application (API and media, real SQLite file) on a free loopback port. */
export async function startServer(
  storageDir = tempStorage(),
  env: Record<string, string> = {},
  logger: LoggerService | false = false,
): Promise<TestServer> {
  const databaseUrl = await databaseUrlFor(storageDir);
  // Media store: with TEST_MEDIA_STORE=s3 the same tests run against a bucket on a real S3 look-alike,
  // kept beside the storage folder so that a restart on the same data finds its objects.
  const s3 =
    process.env.TEST_MEDIA_STORE === 's3' && !env.MEDIA_STORE ? await startS3(`${storageDir}-s3`) : null;
  const config = loadConfig({
    STORAGE_DIR: storageDir,
    PORT: '0',
    HOST: '127.0.0.1',
    // A small pool: the PostgreSQL pass runs many test servers at once on one cluster.
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '4' } : {}),
    ...s3?.env,
    ...env,
  });
  const app = await createApp(config, { pages: false, logger }).catch(async (error: unknown) => {
    await s3?.close();
    throw error;
  });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return {
    app,
    config,
    storageDir,
    s3,
    baseUrl: `http://127.0.0.1:${address.port}`,
    async close(keep = false) {
      await app.close();
      await s3?.close(keep);
      if (!keep) rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

export interface RawResponse {
  status: number;
  headers: import('node:http').IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A plain HTTP GET that sends exactly the given headers. fetch() adds `Cache-Control: no-cache` to
 * conditional requests and decodes gzip, which would hide what a browser's cache and the wire see.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}
