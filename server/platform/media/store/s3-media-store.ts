import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3StoreConfig } from '../store-config';
import {
  assertKey,
  assertPrefix,
  contentTypeOf,
  ObjectNotFoundError,
  StoreUnavailableError,
  type ByteRange,
  type ListedObject,
  type LocalCopy,
  type MediaStore,
  type ObjectInfo,
} from './media-store';

/** S3's most keys in one DeleteObjects request. */
const DELETES_PER_REQUEST = 1000;
/** Tries of an upload, each with a new stream of the file (see put). */
const PUT_ATTEMPTS = 2;

export function createS3Client(config: S3StoreConfig): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint && { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Since v3.729 a streamed upload is sent as aws-chunked with a CRC32 trailer by default; S3 look-alikes
    // (s3rver, older MinIO) keep that framing in the object and corrupt it. Checksums only where S3 needs them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A bucket that cannot be reached should fail a request in seconds, not hang it.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    maxAttempts: 2,
  });
}

function status(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

const notFound = (error: unknown) =>
  status(error) === 404 ||
  (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound'));

/**
 * One prefix of an S3-compatible bucket (`media/` or `imports/`), through @aws-sdk/client-s3 v3. The
 * bucket stays private: the server streams objects to clients (docs/media-storage.md).
 */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3';

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    /** Where this store's keys live in the bucket, e.g. `media/`. */
    private readonly prefix: string,
    /** A local folder for working copies (STORAGE_DIR/tmp, per instance). */
    private readonly tempDir: string,
  ) {}

  private objectKey(key: string): string {
    return this.prefix + assertKey(key);
  }

  /** Any failure but "no such object" means the store is unavailable; the cause goes to the log. */
  private unavailable(action: string, error: unknown): StoreUnavailableError {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return new StoreUnavailableError(`S3 ${action} failed in bucket ${this.bucket}: ${reason}`, {
      cause: error,
    });
  }

  localPath(): null {
    return null;
  }

  async put(key: string, file: string, contentType = contentTypeOf(key)): Promise<void> {
    const { size } = await stat(file);
    // The SDK never retries a streamed body. A file can be read again, so a failed upload is sent once
    // more with a new stream: a kept-alive connection the bucket closed just as it was reused fails the
    // first try (ECONNRESET), and is the usual cause on a busy server.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: this.objectKey(key),
            Body: createReadStream(file),
            // A known length lets the SDK send a plain body instead of a chunked one.
            ContentLength: size,
            ContentType: contentType,
          }),
        );
        break;
      } catch (error) {
        const refused = (status(error) ?? 0) >= 400 && (status(error) ?? 0) < 500;
        if (refused || attempt >= PUT_ATTEMPTS) throw this.unavailable('PutObject', error);
      }
    }
    await rm(file, { force: true });
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let at = 0; at < keys.length; at += DELETES_PER_REQUEST) {
      const batch = keys.slice(at, at + DELETES_PER_REQUEST).map((key) => ({ Key: this.objectKey(key) }));
      let result;
      try {
        result = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch, Quiet: true } }),
        );
      } catch (error) {
        throw this.unavailable('DeleteObjects', error);
      }
      // A missing key is already what was asked for.
      const failed = (result.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
      if (failed.length)
        throw this.unavailable(
          'DeleteObjects',
          new Error(`${failed[0].Key}: ${failed[0].Code} ${failed[0].Message}`),
        );
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertPrefix(prefix);
    if (prefix === '') throw new Error('Refusing to delete a whole store');
    await this.delete((await this.list(prefix)).map((object) => object.key));
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? `"${(head.LastModified ?? new Date(0)).getTime().toString(16)}"`,
        lastModified: head.LastModified ?? new Date(0),
        contentType: head.ContentType ?? null,
      };
    } catch (error) {
      if (notFound(error)) return null;
      throw this.unavailable('HeadObject', error);
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      if (!(object.Body instanceof Readable)) throw new Error('GetObject gave no stream');
      return object.Body;
    } catch (error) {
      if (notFound(error)) throw new ObjectNotFoundError(key);
      throw this.unavailable('GetObject', error);
    }
  }

  async download(key: string, dest: string): Promise<void> {
    const body = await this.read(key);
    try {
      await pipeline(body, createWriteStream(dest, { mode: 0o600 }));
    } catch (error) {
      await rm(dest, { force: true });
      throw this.unavailable('GetObject (reading the body)', error);
    }
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const path = join(this.tempDir, `copy-${randomBytes(12).toString('hex')}`);
    await this.download(key, path);
    return { path, release: () => rm(path, { force: true }) };
  }

  async list(prefix: string): Promise<ListedObject[]> {
    assertPrefix(prefix);
    const found: ListedObject[] = [];
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            ContinuationToken: token,
          }),
        );
      } catch (error) {
        throw this.unavailable('ListObjectsV2', error);
      }
      for (const object of page.Contents ?? [])
        if (object.Key?.startsWith(this.prefix))
          found.push({
            key: object.Key.slice(this.prefix.length),
            lastModified: object.LastModified ?? new Date(),
          });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      throw this.unavailable('HeadBucket', error);
    }
  }
}
