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
/**
 * The store of files made from the media (docs/formats.md): M4B audiobooks and clips transcoded for EPUBs.
 * Never served by /media (an audiobook goes out only through its guarded download route), never swept as
 * orphan media, not in backups: every file in it can be made again.
 */
export const DERIVED_STORE = Symbol('DERIVED_STORE');

export const MEDIA_KINDS = ['covers', 'samples', 'lines'] as const;

export interface Stores {
  media: MediaStore;
  imports: MediaStore;
  derived: MediaStore;
}

/**
 * The two stores, in two places that cannot see each other: STORAGE_DIR/media and STORAGE_DIR/imports,
 * or the bucket's `media/` and `imports/` prefixes (and a third, `derived`, for files made from media). /media serves only the first, so a staged import is
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
      derived: new S3MediaStore(client, store.bucket, 'derived/', tempDir),
    };
  }
  const media = join(config.storageDir, 'media');
  // Made at boot, so express.static and the sweep find them even before the first upload.
  for (const kind of MEDIA_KINDS) mkdirSync(join(media, kind), { recursive: true });
  mkdirSync(join(config.storageDir, 'imports'), { recursive: true });
  mkdirSync(join(config.storageDir, 'derived'), { recursive: true });
  return {
    media: new LocalMediaStore(media),
    imports: new LocalMediaStore(join(config.storageDir, 'imports')),
    derived: new LocalMediaStore(join(config.storageDir, 'derived')),
  };
}
