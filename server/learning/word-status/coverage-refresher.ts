import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../platform/common/clock';
import { primaryTag } from '../../platform/common/language-tags';
import { CatalogueEvents } from '../../content/catalogue/catalogue-events';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ChapterWordsRepository } from '../../content/catalogue/repository/chapter-words.repository';
import { dateToDb } from '../../platform/database/db-dates';
import { WordFormsService } from '../../content/word-forms/word-forms.service';
import { changedRows, letOthersIn, sql } from '../../platform/database/sql';

/** How often the refresher looks for members whose coverage changed, besides being woken by a change. */
const SCAN_MS = 30_000;
/** How long a claim on one member's language holds: far longer than one refresh takes. */
const CLAIM_MS = 5 * 60_000;
/** How long a run that failed waits before it is tried again. */
const BACK_OFF_MS = 60_000;
/** Refreshes per scan; more wait for the next. */
const PER_SCAN = 50;

/**
 * Keeps the precomputed coverage (docs/word-status.md, "Coverage"): each member's coverage of every book in
 * a language, `book_coverage`. A change of the member's statuses shifts it in its own transaction
 * (`follow`); a change of the language's books stamps `coverage_runs.changed_at` of every member in it,
 * and the refresher computes the runs whose computation is older, each claimed by a conditional UPDATE
 * so that two instances never compute the same one. Until then the coverage is computed when asked.
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
    wordForms: WordFormsService,
  ) {
    events.subscribe((codes) => this.booksChanged(codes));
    // A language's words got new keys (its word forms changed): every member's coverage of it is stale.
    wordForms.afterRecount((lang) => this.languageChanged(lang));
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), SCAN_MS);
    this.timer.unref();
    this.wake();
    // An upgraded installation counts its older chapters in the background: what was computed meanwhile
    // left them out.
    void this.books.chaptersCounted
      .then((counted) => (counted && !this.stopping ? this.languageChanged(null) : undefined))
      .catch((error: unknown) =>
        this.logger.warn(`Coverage after the boot's count failed: ${String(error)}`),
      );
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    // Not the boot's fill (it may count a large upgrade's chapters for long): its stamp is skipped once
    // stopping, and its failure is caught.
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

  /**
   * First in every transaction that changes a member's statuses in `lang`: their run's row is created if
   * need be and locked, so that two changes of theirs (two taps, two devices) and a catalogue change
   * stamping it wait for one another on PostgreSQL, and each reads the statuses the other committed.
   */
  async lock(tx: EntityManager, userId: number, lang: string): Promise<void> {
    await sql(
      tx,
      `INSERT INTO coverage_runs (user_id, lang, changed_at) VALUES (?, ?, ?)
       ON CONFLICT (user_id, lang) DO UPDATE SET changed_at = coverage_runs.changed_at`,
      [userId, lang, dateToDb(tx, this.clock.now())],
    );
  }

  /**
   * Within the transaction that changed the member's statuses of `keys` in `lang` (now known: `sign` 1;
   * no longer known: -1), after `lock`: their precomputed coverage is shifted at once when it is complete,
   * else their run is stamped (with the time taken under the lock, so that a computation that started
   * before stays due) to be computed again. Call `wake` once the transaction committed.
   */
  async follow(tx: EntityManager, userId: number, lang: string, keys: string[], sign: 1 | -1): Promise<void> {
    if (!keys.length) return;
    if ((await this.state(tx, userId, lang)) === 'fresh') {
      await this.chapterWords.shiftCoverage(tx, userId, lang, keys, sign);
      return;
    }
    await sql(tx, 'UPDATE coverage_runs SET changed_at = ? WHERE user_id = ? AND lang = ?', [
      dateToDb(tx, this.clock.now()),
      userId,
      lang,
    ]);
  }

  /**
   * Whether the member's precomputed coverage of `lang` is complete and current (computed since the last
   * change of their statuses or of the language's books), waits for a computation, or was never asked for.
   */
  async state(
    db: DataSource | EntityManager,
    userId: number,
    lang: string,
  ): Promise<'fresh' | 'due' | 'none'> {
    const [run] = await sql<Array<{ fresh: number | string }>>(
      db,
      `SELECT CASE WHEN computed_at IS NOT NULL AND computed_at >= changed_at THEN 1 ELSE 0 END AS fresh
         FROM coverage_runs WHERE user_id = ? AND lang = ?`,
      [userId, lang],
    );
    return !run ? 'none' : Number(run.fresh) === 1 ? 'fresh' : 'due';
  }

  /** A member's coverage of `lang` is computed in the background, so that their next request reads it. */
  async start(userId: number, lang: string): Promise<void> {
    await sql(
      this.db,
      'INSERT INTO coverage_runs (user_id, lang, changed_at) VALUES (?, ?, ?) ON CONFLICT (user_id, lang) DO NOTHING',
      [userId, lang, dateToDb(this.db, this.clock.now())],
    );
    this.wake();
  }

  /**
   * Books changed (their words, their language, or they went): every member of their languages, the
   * languages they had too (a book that changed language, a chapter that moved out of one).
   */
  private async booksChanged(codes: string[]): Promise<void> {
    // No codes: a notice this instance may have missed (a boot, a reconnect), not a change; stamping every
    // member's every language for it would recompute them all at each boot. The next change stamps them.
    if (!codes.length) return;
    const books = await this.books.byCodes(codes);
    const languages = new Set(books.flatMap((book) => (book.language ? [primaryTag(book.language)] : [])));
    if (books.length) {
      const held = await sql<Array<{ lang: string }>>(
        this.db,
        `SELECT DISTINCT lang FROM book_coverage WHERE book_id IN (${books.map(() => '?').join(', ')})`,
        books.map((book) => book.id),
      );
      for (const { lang } of held) languages.add(String(lang));
    }
    // A deleted book is no longer found: nobody's order shows it (the browse joins from the books).
    for (const lang of languages) await this.languageChanged(lang);
  }

  /** Every member's coverage of `lang` (every language: null) is computed again. */
  private async languageChanged(lang: string | null): Promise<void> {
    const now = dateToDb(this.db, this.clock.now());
    if (lang === null) await sql(this.db, 'UPDATE coverage_runs SET changed_at = ?', [now]);
    else await sql(this.db, 'UPDATE coverage_runs SET changed_at = ? WHERE lang = ?', [now, lang]);
    this.wake();
  }

  /** Computes the due runs soon (in this process's queue of refreshes). */
  wake(): void {
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
      await letOthersIn();
    }
    // More may be due: the next page, or a run changed while (or in the millisecond) it was computed.
    if (done > 0) this.again = true;
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
