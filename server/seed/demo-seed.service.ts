import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource, type Repository } from 'typeorm';
import { hashPassword } from '../accounts/auth/password';
import { CatalogueEvents } from '../content/catalogue/catalogue-events';
import { BooksRepository } from '../content/catalogue/repository/books.repository';
import { APP_CONFIG, type AppConfig } from '../platform/config';
import { AppMeta } from '../platform/database/app-meta.entity';
import type { ReadyBook } from '../publishing/imports/manifests';
import {
  createWholeBook,
  storedPaths,
  storeBookFiles,
  type StoredBookFiles,
} from '../publishing/imports/whole-book';
import { MediaService } from '../platform/media/media.service';
import { User, UserType } from '../accounts/users/user.entity';
import { demoReadyBook } from './demo-book';
import { readDemoCatalogue, readDemoLengths } from './demo-catalogue';

export const DEMO_ADMIN_EMAIL = 'admin@demo.lingonovel';
const SEEDED_KEY = 'demo_seeded_at';
const CREDENTIALS_FILE = 'demo-admin.json';

export interface DemoCredentials {
  email: string;
  password: string;
}

/**
 * Fills an empty installation with the demo catalogue and a demo administrator, once: the fact is
 * recorded in app_meta, so a restart (or an administrator who deleted every book) never gets it again.
 * Each book goes the book import's way (publishing/imports/whole-book.ts): read by its rules, its files stored
 * through the upload checks, then created whole; all books in one transaction, with the administrator.
 * The administrator's password is random per installation and kept beside the data for `npm start` to
 * print; `npm run serve` never seeds.
 */
@Injectable()
export class DemoSeedService {
  private readonly logger = new Logger(DemoSeedService.name);

  constructor(
    private readonly db: DataSource,
    private readonly books: BooksRepository,
    private readonly media: MediaService,
    private readonly events: CatalogueEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async seedOnce(): Promise<DemoCredentials | null> {
    const seeded = await this.db.getRepository(AppMeta).findOneBy({ key: SEEDED_KEY });
    if (seeded) return this.readCredentials();

    const { dir, books: demo } = readDemoCatalogue();
    const books = await Promise.all(demo.map((book) => demoReadyBook(book)));
    const credentials = { email: DEMO_ADMIN_EMAIL, password: randomBytes(12).toString('base64url') };
    const stored = await this.storeFiles(dir, books);
    const passwordHash = await hashPassword(credentials.password);
    try {
      await this.db.transaction(async (tx) => {
        for (const [index, book] of books.entries())
          await createWholeBook(this.books, tx, book, stored[index]);
        await this.upsertAdmin(tx.getRepository(User), credentials.email, passwordHash);
        await tx.getRepository(AppMeta).save({ key: SEEDED_KEY, value: new Date().toISOString() });
      });
    } catch (error) {
      await this.media.discard(stored.flatMap(storedPaths));
      throw error;
    }
    // The page cache and the locked-clip set learn of the new books as after any admin change.
    await this.events.changed();
    await writeFile(join(this.config.storageDir, CREDENTIALS_FILE), JSON.stringify(credentials) + '\n', {
      mode: 0o600,
    });
    this.logger.log(`Seeded the demo catalogue: ${books.length} books`);
    return credentials;
  }

  private async readCredentials(): Promise<DemoCredentials | null> {
    try {
      return JSON.parse(
        await readFile(join(this.config.storageDir, CREDENTIALS_FILE), 'utf8'),
      ) as DemoCredentials;
    } catch {
      return null;
    }
  }

  private async upsertAdmin(users: Repository<User>, email: string, passwordHash: string): Promise<void> {
    const existing = await users.findOneBy({ email });
    await users.save({
      ...(existing ?? {}),
      name: 'Demo Administrator',
      email,
      passwordHash,
      userType: UserType.Admin,
      userRoleId: UserType.Admin,
    });
  }

  /**
   * The demo files, through the same checks as an imported book's, a book at a time each (the books side
   * by side). Unlike an import's, their decoded lengths are known (demo/lengths.json): they are kept as
   * they are stored and go on the rows at once, so neither the first start nor MeasureAhead decodes a
   * hundred clips (docs/formats.md "Exact lengths"). A file missing there is measured after the change,
   * as an import's. If one book's files fail, every book's stored files are discarded.
   */
  private async storeFiles(dir: string, books: ReadyBook[]): Promise<StoredBookFiles[]> {
    const lengths = readDemoLengths(dir);
    if (lengths.size === 0)
      this.logger.warn(
        'The demo clips have no kept lengths (demo/lengths.json): they are measured after the seed',
      );
    const results = await Promise.allSettled(
      books.map((book) =>
        storeBookFiles(
          this.media,
          book,
          (file, temp) => copyFile(join(dir, file), temp),
          (file) => lengths.get(file),
        ),
      ),
    );
    const stored = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = results.find((result) => result.status === 'rejected');
    if (!failed) return stored;
    await this.media.discard(stored.flatMap(storedPaths));
    throw failed.reason;
  }
}
