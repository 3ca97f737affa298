import {
  ConflictException,
  Injectable,
  Logger,
  NotFoundException,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { DataSource, LessThan, type EntityManager, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { Clock } from '../../platform/common/clock';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/database/db-errors';
import { changedRows, sql } from '../../platform/database/sql';
import type { User } from '../../accounts/users/user.entity';
import { DeletedWord } from './deleted-word.entity';
import { ReviewLog } from './review-log.entity';
import { SavedWord } from './saved-word.entity';
import type { WordDeletedAnswer, WordRestoredAnswer } from './words.dto';
import { WordsService } from './words.service';

/**
 * How long a deleted word can be brought back. The words page offers Undo for a few seconds; the server
 * keeps the word a little longer, so that a slow network or a busy server never loses an Undo pressed in
 * time.
 */
export const UNDO_WINDOW_MS = 2 * 60_000;
const PURGE_EVERY_MS = 60_000;

const WORD_GONE = 'This word can no longer be brought back.';
const SAVED_AGAIN = 'You have saved this word again since you deleted it.';
const PHRASE_GONE = 'The phrase this word came from has been deleted.';

/** A deleted word's rows, as kept in word_trash.snapshot. */
interface WordSnapshot {
  word: SavedWord;
  logs: ReviewLog[];
}

/** JSON keeps dates as text: these fields are dates again on the way back. */
const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
const reviveWord = (word: SavedWord): SavedWord => ({
  ...word,
  // Deleted before cards had kinds (migration Practice): a word, as every card was then.
  kind: word.kind ?? 'word',
  createdAt: date(word.createdAt)!,
  due: date(word.due)!,
  lastReview: date(word.lastReview),
});
const reviveLog = (log: ReviewLog): ReviewLog => ({
  ...log,
  due: date(log.due)!,
  reviewedAt: date(log.reviewedAt)!,
  lastReview: date(log.lastReview),
});

/**
 * Inserts rows with every column given, their ids included: TypeORM's insert leaves a generated id out on
 * PostgreSQL. Each value is written the way TypeORM writes it (dates as SQLite's UTC text, or timestamps).
 */
async function insertAsTheyWere<T extends ObjectLiteral>(
  tx: EntityManager,
  entity: EntityTarget<T>,
  rows: T[],
): Promise<void> {
  const { tableName, columns } = tx.connection.getMetadata(entity);
  const names = columns.map((column) => `"${column.databaseName}"`).join(', ');
  const slots = `(${columns.map(() => '?').join(', ')})`;
  for (const row of rows)
    await sql(
      tx,
      `INSERT INTO "${tableName}" (${names}) VALUES ${slots}`,
      columns.map((column): unknown =>
        tx.connection.driver.preparePersistentValue(column.getEntityValue(row), column),
      ),
    );
}

/**
 * Deleting a word, and taking the delete back. A deleted word leaves saved_words at once (its review log
 * rows go with it, by the foreign key), so lists, reviews, exports and stats need no filter; its rows wait
 * in word_trash for UNDO_WINDOW_MS, and Undo inserts them again with their own ids, the card and its
 * history exactly as they were. Both databases number ids with AUTOINCREMENT or a sequence, which never
 * hand out an id twice, so the old ids are still free. Past the window, the trash is purged: every minute
 * and at boot, on every instance (each purge takes only what is due).
 */
@Injectable()
export class WordTrash implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(WordTrash.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly words: WordsService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const purge = () => void this.purge().catch((error: unknown) => this.logger.error(error));
    purge();
    this.timer = setInterval(purge, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async remove(user: User, id: number): Promise<WordDeletedAnswer> {
    const now = this.clock.now();
    await this.db
      .transaction(async (tx) => {
        // The card is locked while it is copied: an answer given meanwhile either comes first and is in
        // the copy, or finds no card (409).
        await this.lockWord(tx, id);
        const word = await tx.findOneBy(SavedWord, { id, userId: user.id });
        // Another member's word is as unknown as a missing one.
        if (!word) throw new NotFoundException('Word not found.');
        const logs = await tx.find(ReviewLog, { where: { wordId: id }, order: { id: 'ASC' } });
        const snapshot: WordSnapshot = { word, logs };
        await tx.insert(DeletedWord, {
          wordId: id,
          userId: user.id,
          deletedAt: now,
          snapshot: JSON.stringify(snapshot),
        });
        await tx.delete(SavedWord, { id });
      })
      .catch((error: unknown) => {
        // The same word deleted twice at once: the trash's key keeps one, and the other finds no word.
        throw isUniqueViolation(error) ? new NotFoundException('Word not found.') : error;
      });
    return {
      message: 'The word has been removed.',
      undo_until: new Date(now.getTime() + UNDO_WINDOW_MS).toISOString(),
    };
  }

  /** Brings a word deleted within the window back: the same id, its card and its review history. */
  async restore(user: User, id: number): Promise<WordRestoredAnswer> {
    const cutoff = new Date(this.clock.now().getTime() - UNDO_WINDOW_MS);
    await this.db
      .transaction(async (tx) => {
        const entry = await tx.findOneBy(DeletedWord, { wordId: id, userId: user.id });
        if (!entry || entry.deletedAt <= cutoff) throw new NotFoundException(WORD_GONE);
        // Taken out of the trash first: of two restores at once, the second takes nothing.
        if (!(await changedRows(tx, 'DELETE FROM word_trash WHERE word_id = ?', [id])))
          throw new NotFoundException(WORD_GONE);
        const { word, logs } = JSON.parse(entry.snapshot) as WordSnapshot;
        await insertAsTheyWere(tx, SavedWord, [reviveWord(word)]);
        await insertAsTheyWere(tx, ReviewLog, logs.map(reviveLog));
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new ConflictException(SAVED_AGAIN);
        if (isForeignKeyViolation(error)) throw new NotFoundException(PHRASE_GONE);
        throw error;
      });
    return { message: 'The word is back.', data: await this.words.one(user, id) };
  }

  /** Deletes for good the words deleted more than UNDO_WINDOW_MS before `now`; answers how many. */
  async purge(now = this.clock.now()): Promise<number> {
    const { affected } = await this.db
      .getRepository(DeletedWord)
      .delete({ deletedAt: LessThan(new Date(now.getTime() - UNDO_WINDOW_MS)) });
    return affected ?? 0;
  }

  private async lockWord(tx: EntityManager, id: number): Promise<void> {
    if (tx.connection.options.type === 'postgres')
      await tx.query('SELECT id FROM saved_words WHERE id = $1 FOR UPDATE', [id]);
  }
}
