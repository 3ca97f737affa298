import { Global, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config';
import { MediaService } from './media.service';
import { MediaTrash, referencedMedia } from './media-trash';
import { createStores, DERIVED_STORE, IMPORT_STORE, MEDIA_STORE, type Stores } from './store/create-stores';

const STORES = Symbol('STORES');

/**
 * Media and where it is kept. MEDIA_STORE is exported for a readiness probe too:
 * `@Inject(MEDIA_STORE) store: MediaStore` then `await store.check()` (throws StoreUnavailableError).
 */
@Global()
@Module({
  providers: [
    { provide: STORES, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createStores(config) },
    { provide: MEDIA_STORE, inject: [STORES], useFactory: (stores: Stores) => stores.media },
    { provide: IMPORT_STORE, inject: [STORES], useFactory: (stores: Stores) => stores.imports },
    { provide: DERIVED_STORE, inject: [STORES], useFactory: (stores: Stores) => stores.derived },
    MediaService,
    MediaTrash,
  ],
  exports: [MediaService, MediaTrash, MEDIA_STORE, IMPORT_STORE, DERIVED_STORE],
})
export class MediaModule implements OnApplicationBootstrap {
  constructor(
    private readonly media: MediaService,
    private readonly trash: MediaTrash,
    private readonly db: DataSource,
  ) {}

  /**
   * Clears leftovers of aborted uploads and crashes before the first request arrives, and deletes the
   * replaced or deleted media whose hour is up.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.trash.purge();
    await this.media.sweep(await this.referenced());
  }

  /** Every key a row points to. */
  referenced(): Promise<string[]> {
    return referencedMedia(this.db);
  }
}
