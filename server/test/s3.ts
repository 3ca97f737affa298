import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, rmSync } from 'node:fs';
import S3rver from 's3rver';
import { createS3Client } from '../media/store/s3-media-store';

/** s3rver's default credentials; the bucket is made per test server. */
export const TEST_BUCKET = 'lingonovel-test';

export interface TestS3 {
  /** What the app needs to use this bucket, as environment variables. */
  env: Record<string, string>;
  /** An SDK client of our own, to look at the bucket without going through the app. */
  client: S3Client;
  bucket: string;
  port: number;
  stop(): Promise<void>;
  /** Starts again on the same port and data (after `stop`). */
  start(): Promise<void>;
  /** Stops it and, unless `keep`, removes its data. */
  close(keep?: boolean): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, in-process, objects kept under `directory`) on a loopback port,
 * with one bucket made through the SDK. Used by the API tests when TEST_MEDIA_STORE=s3.
 */
export async function startS3(directory: string): Promise<TestS3> {
  mkdirSync(directory, { recursive: true });
  let server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const env = {
    MEDIA_STORE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_BUCKET: TEST_BUCKET,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = createS3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    bucket: TEST_BUCKET,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  });
  // Already there when a test restarts on kept data.
  await client.send(new CreateBucketCommand({ Bucket: TEST_BUCKET })).catch((error: Error) => {
    if (!/BucketAlready/.test(error.name)) throw error;
  });
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    // The SDK keeps connections alive; close() alone would wait for them to idle out.
    server.httpServer?.closeAllConnections();
    await server.close();
  };
  return {
    env,
    client,
    bucket: TEST_BUCKET,
    port,
    stop,
    async start() {
      server = new S3rver({ address: '127.0.0.1', port, silent: true, directory });
      await server.run();
      running = true;
    },
    async close(keep = false) {
      await stop();
      client.destroy();
      if (!keep) rmSync(directory, { recursive: true, force: true });
    },
  };
}
