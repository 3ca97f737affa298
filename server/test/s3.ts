import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createS3Client } from '../platform/media/store/s3-media-store';

/** One bucket per test server, each server with its own s3rver and folder. */
export const TEST_BUCKET = 'lingonovel-test';

export interface TestS3 {
  /** What the app needs to use this bucket, as environment variables. */
  env: Record<string, string>;
  /** An SDK client of our own, to look at the bucket without going through the app. */
  client: S3Client;
  bucket: string;
  port: number;
  /** Stops the S3 server (the app's requests then fail), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and, unless `keep`, removes its data. */
  close(keep?: boolean): Promise<void>;
}

/**
 * Runs s3rver in a child process. Two of its bugs are worked around there, neither of which real S3 has:
 * - its ListObjectsV2 continuation tokens use DES, which OpenSSL 3 only has in its legacy provider, so a
 *   listing of more than 1,000 keys fails without `--openssl-legacy-provider` (not settable in-process);
 * - it removes a key's emptied folders after deleting it, and deletions in one folder at once (DeleteObjects
 *   runs its keys in parallel) race: the loser's readdir/rmdir fails with ENOENT after its object is gone.
 *   That error alone is dropped; the deletion did happen.
 * It also keeps idle connections open longer than Node's default, as real S3 does.
 */
const CHILD = `
const S3rver = require(process.env.S3RVER_MODULE);
const server = new S3rver({
  address: '127.0.0.1', port: Number(process.env.S3RVER_PORT), silent: process.env.S3RVER_LOG !== '1',
  directory: process.env.S3RVER_DIR,
});
const deleteObject = server.store.deleteObject.bind(server.store);
server.store.deleteObject = (bucket, key) => deleteObject(bucket, key).catch((error) => {
  if (error?.code !== 'ENOENT' || !['scandir', 'rmdir'].includes(error.syscall)) throw error;
});
server.run().then(({ port }) => {
  // Node's 5 s idle close races the SDK's reuse of a kept-alive connection when either process stalls (a
  // loaded test machine): the upload then fails with ECONNRESET. Real S3 keeps idle connections longer.
  server.httpServer.keepAliveTimeout = 65000;
  process.stdout.write('listening ' + port + '\\n');
});
process.on('SIGTERM', () => process.exit(0));
`;

function spawnS3rver(directory: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', CHILD], {
    env: {
      ...process.env,
      S3RVER_MODULE: require.resolve('s3rver'),
      S3RVER_DIR: directory,
      S3RVER_PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening (\d+)/.exec(out);
      if (found) resolve({ child, port: Number(found[1]) });
    });
  });
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/**
 * A real S3-compatible server (s3rver, objects kept under `directory`) on a loopback port, with one bucket
 * made through the SDK. Used by the API tests when TEST_MEDIA_STORE=s3, and by media-store.e2e-spec.ts.
 */
export async function startS3(directory: string): Promise<TestS3> {
  mkdirSync(directory, { recursive: true });
  const started = await spawnS3rver(directory, 0);
  const port = started.port;
  let child = started.child;
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
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
  });
  // Already there when a test restarts on kept data.
  await client.send(new CreateBucketCommand({ Bucket: TEST_BUCKET })).catch((error: Error) => {
    if (!/BucketAlready/.test(error.name)) throw error;
  });
  return {
    env,
    client,
    bucket: TEST_BUCKET,
    port,
    stop: () => stopChild(child),
    async start() {
      ({ child } = await spawnS3rver(directory, port));
    },
    async close(keep = false) {
      await stopChild(child);
      client.destroy();
      if (!keep) rmSync(directory, { recursive: true, force: true });
    },
  };
}
