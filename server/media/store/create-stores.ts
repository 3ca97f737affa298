import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../config';
import { LocalMediaStore } from './local-media-store';
import type { MediaStore } from './media-store';
import { createS3Client, S3MediaStore } from './s3-media-store';

/** The store of published media (`covers/…`, `samples/…`, `lines/…`): what /media serves. */
export const MEDIA_STORE = Symbol('MEDIA_STORE');
/** The store of staged imports (`<import id>/…`): never served as media. */
export const IMPORT_STORE = Symbol('IMPORT_STORE');

export const MEDIA_KINDS = ['covers', 'samples', 'lines'] as const;

export interface Stores {
  media: MediaStore;
  imports: MediaStore;
}

/**
 * The two stores, in two places that cannot see each other: STORAGE_DIR/media and STORAGE_DIR/imports,
 * or the bucket's `media/` and `imports/` prefixes. /media serves only the first, so a staged import is
 * never public.
 */
export function createStores(config: AppConfig): Stores {
  const tempDir = join(config.storageDir, 'tmp');
  const store = config.mediaStore;
  if (store.kind === 's3') {
    const client = createS3Client(store);
    return {
      media: new S3MediaStore(client, store.bucket, 'media/', tempDir),
      imports: new S3MediaStore(client, store.bucket, 'imports/', tempDir),
    };
  }
  const media = join(config.storageDir, 'media');
  // Made at boot, so express.static and the sweep find them even before the first upload.
  for (const kind of MEDIA_KINDS) mkdirSync(join(media, kind), { recursive: true });
  mkdirSync(join(config.storageDir, 'imports'), { recursive: true });
  return {
    media: new LocalMediaStore(media),
    imports: new LocalMediaStore(join(config.storageDir, 'imports')),
  };
}
