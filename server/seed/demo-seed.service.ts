import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataSource, type Repository } from 'typeorm';
import { Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config';
import { AppMeta } from '../database/app-meta.entity';
import { uniqueCode } from '../books/book-code';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { MediaService } from '../media/media.service';
import { User, UserType } from '../users/user.entity';
import { hashPassword } from '../auth/password';
import { readDemoCatalogue, type DemoBook } from './demo-catalogue';

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

    const { dir, books } = readDemoCatalogue();
    const credentials = { email: DEMO_ADMIN_EMAIL, password: randomBytes(12).toString('base64url') };
    const staged = await Promise.all(books.map((book) => this.stageMedia(dir, book)));
    const passwordHash = await hashPassword(credentials.password);
    try {
      await this.db.transaction(async (tx) => {
        const taken = new Set(await this.books.codes('', tx));
        for (const [index, book] of books.entries()) {
          const media = staged[index];
          const bookCode = uniqueCode(book.title, taken);
          taken.add(bookCode);
          await this.books.createWhole(
            {
              bookCode,
              title: book.title,
              author: book.author,
              narratedBy: book.narrated_by,
              description: book.description,
              difficulty: book.difficulty,
              hours: book.hours,
              minutes: book.minutes,
              coverPath: media.cover,
              sampleAudioPath: media.sample.path,
              sampleAudioMs: media.sample.durationMs,
              sampleText: book.sample_text,
              language: book.language,
              cefr: book.cefr,
            },
            book.chapters.map((chapter, c) => ({
              title: chapter.title,
              chapterNo: chapter.chapter_no,
              phrases: chapter.phrases.map((phrase, p) => ({
                phrase: phrase.phrase,
                dictionary: phrase.dictionary,
                translations: phrase.translations,
                audioPath: media.lines[c][p].path,
                audioMs: media.lines[c][p].durationMs,
              })),
            })),
            tx,
          );
        }
        await this.upsertAdmin(tx.getRepository(User), credentials.email, passwordHash);
        await tx.getRepository(AppMeta).save({ key: SEEDED_KEY, value: new Date().toISOString() });
      });
    } catch (error) {
      await this.media.discard(
        staged.flatMap((m) => [m.cover, m.sample.path, ...m.lines.flat().map((l) => l.path)]),
      );
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

  /** Runs the demo files through the same checks and encoders as an administrator's upload. */
  private async stageMedia(dir: string, book: DemoBook) {
    const ingest = async (file: string) => {
      const temp = this.media.tempPath();
      await copyFile(join(dir, file), temp);
      return temp;
    };
    const cover = await this.media.storeCover(await ingest(book.cover));
    // As an import: 119 clips decoded before the first start listens would hold it up; the change the
    // seed announces has MeasureAhead decode them and put their lengths on the rows (docs/formats.md).
    const sample = await this.media.storeAudio(await ingest(book.sample_audio), 'samples', 'later');
    const lines = [];
    for (const chapter of book.chapters) {
      const stored = [];
      for (const phrase of chapter.phrases)
        stored.push(await this.media.storeAudio(await ingest(phrase.audio), 'lines', 'later'));
      lines.push(stored);
    }
    return { cover, sample, lines };
  }
}
