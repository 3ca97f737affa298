import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { primaryTag } from '../common/language-tags';
import { CatalogueEvents } from '../catalogue/catalogue-events';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { ChapterWordsRepository } from '../catalogue/repository/chapter-words.repository';
import { dateToDb } from '../database/db-dates';
import { changedRows, sql } from '../database/sql';

/** How often the refresher looks for members whose coverage changed, besides being woken by a change. */
const SCAN_MS = 30_000;
/** How long a claim on one member's language holds: far longer than one refresh takes. */
const CLAIM_MS = 5 * 60_000;
/** How long a run that failed waits before it is tried again. */
const BACK_OFF_MS = 60_000;
/** Refreshes per scan; more wait for the next. */
const PER_SCAN = 50;

/**
 * Keeps "Best for me" fresh (docs/word-status.md, "Best for me"): each member's coverage of every book in a
 * language, `book_coverage`, is computed again in the background whenever the member's statuses in it
 * change (`touch`, by the status service) or the language's books do (a catalogue change). A change
 * stamps `coverage_runs.changed_at`; the refresher computes the runs whose computation is older, each
 * claimed by a conditional UPDATE so that two instances never compute the same one. The answer of
 * `GET user/books?sort=coverage` says when its order was computed.
 */
@Injectable()
export class CoverageRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(CoverageRefresher.name);
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> = Promise.resolve();
  private again = false;
  private stopping = false;

  constructor(
    private readonly db: DataSource,
    private readonly clock: Clock,
    private readonly books: BooksRepository,
    private readonly chapterWords: ChapterWordsRepository,
    events: CatalogueEvents,
  ) {
    events.subscribe((codes) => this.booksChanged(codes));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), SCAN_MS);
    this.timer.unref();
    this.wake();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Resolves once no refresh is running or asked for (the tests wait for it). */
  async settled(): Promise<void> {
    while (true) {
      const running = this.running;
      await running;
      if (running === this.running && (!this.again || this.stopping)) return;
    }
  }

  /** The member's statuses in `lang` changed: their coverage is computed again. */
  async touch(userId: number, lang: string): Promise<void> {
    const now = dateToDb(this.db, this.clock.now());
    await sql(
      this.db,
      `INSERT INTO coverage_runs (user_id, lang, changed_at) VALUES (?, ?, ?)
       ON CONFLICT (user_id, lang) DO UPDATE SET changed_at = excluded.changed_at`,
      [userId, lang, now],
    );
    this.wake();
  }

  /** Books changed (their words, their language, or they went): every member of their languages. */
  private async booksChanged(codes: string[]): Promise<void> {
    const now = dateToDb(this.db, this.clock.now());
    // No codes: a notice this instance may have missed (a boot, a reconnect), not a change; stamping every
    // member's every language for it would recompute them all at each boot. The next change stamps them.
    if (!codes.length) return;
    const languages = new Set(
      (await this.books.byCodes(codes)).flatMap((book) => (book.language ? [primaryTag(book.language)] : [])),
    );
    // A deleted book is no longer found: nobody's order shows it (the browse joins from the books).
    for (const lang of languages)
      await sql(this.db, 'UPDATE coverage_runs SET changed_at = ? WHERE lang = ?', [now, lang]);
    this.wake();
  }

  private wake(): void {
    if (this.stopping) return;
    this.again = true;
    this.running = this.running.then(async () => {
      while (this.again && !this.stopping) {
        this.again = false;
        await this.scan().catch((error: unknown) =>
          this.logger.warn(`Coverage refresh failed: ${String(error)}`),
        );
      }
    });
  }

  private async scan(): Promise<void> {
    // Runs claimed elsewhere, or failing and waiting out their back-off, are left for later.
    const due = await sql<Array<{ user_id: number | string; lang: string }>>(
      this.db,
      `SELECT user_id, lang FROM coverage_runs
        WHERE (computed_at IS NULL OR computed_at < changed_at) AND (claimed_until IS NULL OR claimed_until < ?)
        ORDER BY changed_at LIMIT ${PER_SCAN}`,
      [dateToDb(this.db, this.clock.now())],
    );
    let done = 0;
    for (const run of due) {
      if (this.stopping) return;
      if (await this.refresh(Number(run.user_id), String(run.lang))) done++;
    }
    if (due.length === PER_SCAN && done > 0) this.again = true;
  }

  /**
   * One member's language: claimed, computed, then stamped with the time the computation started. A
   * failure keeps the claim for a minute (a back-off), so that a run that keeps failing never holds up the
   * others. Answers whether it was computed.
   */
  private async refresh(userId: number, lang: string): Promise<boolean> {
    const started = this.clock.now();
    const claimed = await changedRows(
      this.db,
      `UPDATE coverage_runs SET claimed_until = ?
        WHERE user_id = ? AND lang = ? AND (claimed_until IS NULL OR claimed_until < ?)
          AND (computed_at IS NULL OR computed_at < changed_at)`,
      [dateToDb(this.db, new Date(started.getTime() + CLAIM_MS)), userId, lang, dateToDb(this.db, started)],
    );
    if (!claimed) return false;
    try {
      await this.chapterWords.refreshCoverage(userId, lang);
      // A change after `started` keeps the run due: it is computed again (one in the same millisecond too).
      await sql(
        this.db,
        'UPDATE coverage_runs SET computed_at = ?, claimed_until = NULL WHERE user_id = ? AND lang = ?',
        [dateToDb(this.db, new Date(started.getTime() - 1)), userId, lang],
      );
      return true;
    } catch (error) {
      this.logger.warn(
        `Coverage of member ${userId} in ${lang} failed, tried again in a minute: ${String(error)}`,
      );
      await sql(this.db, 'UPDATE coverage_runs SET claimed_until = ? WHERE user_id = ? AND lang = ?', [
        dateToDb(this.db, new Date(this.clock.now().getTime() + BACK_OFF_MS)),
        userId,
        lang,
      ]).catch(() => undefined);
      return false;
    }
  }
}
