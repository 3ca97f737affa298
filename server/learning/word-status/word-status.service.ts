import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ValidationFailed } from '../../platform/common/api-error';
import { Clock } from '../../platform/common/clock';
import { primaryTag } from '../../platform/common/language-tags';
import { formOf, MAX_FORM, runningWords } from '../../platform/common/running-words';
import { sentLaterTime } from '../../platform/common/sent-later';
import { parseBrowseQuery } from '../../content/catalogue/browse-query';
import { toPublicBook } from '../../content/catalogue/catalogue.service';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ChapterWordsRepository } from '../../content/catalogue/repository/chapter-words.repository';
import { dateFromDb, dateToDb } from '../../platform/database/db-dates';
import { sql } from '../../platform/database/sql';
import { Access } from '../../content/access/access.service';
import type { User } from '../../accounts/users/user.entity';
import { wordKeys } from '../../content/word-forms/word-keys';
import { CoverageRefresher } from './coverage-refresher';
import type {
  MemberBooksAnswer,
  ChapterMarkAnswer,
  ChapterMarkDto,
  ChapterWordsAnswer,
  ChapterWordsQuery,
  CoverageAnswer,
  SetWordStatusDto,
  UndoneAnswer,
  WordStatusAnswer,
} from './word-status.dto';

const NOTHING_TO_UNDO = 'Nothing to undo: no such marking of yours.';

/** Keys per statement: with the member and the language, well under SQLite's 999 bound values. */
const KEYS_PER_QUERY = 400;
/** Status rows per INSERT: 6 values each. */
const ROWS_PER_INSERT = 150;

const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/**
 * A member's word statuses (docs/word-status.md): "known" kept per language and key (a form's lemma when
 * it has exactly one: word-keys.ts), "learning" read from the saved words, "new" everything else; marking
 * the rest of a chapter known, and its undo; the coverage of books.
 */
@Injectable()
export class WordStatusService {
  constructor(
    private readonly db: DataSource,
    private readonly access: Access,
    private readonly bookRows: BooksRepository,
    private readonly chapterWords: ChapterWordsRepository,
    private readonly refresher: CoverageRefresher,
    private readonly clock: Clock,
  ) {}

  /**
   * Sets a word known, or back to new. With `at` (set offline, sent later) the later of two settings wins:
   * one made after `at` is kept, and answered.
   */
  async set(user: User, dto: SetWordStatusDto): Promise<WordStatusAnswer> {
    const now = this.clock.now();
    const at = dto.at ? sentLaterTime(new Date(dto.at), now, 'The time of the status') : now;
    const lang = primaryTag(dto.lang);
    const form = formOf(dto.word, lang);
    if (form.length > MAX_FORM)
      throw ValidationFailed.field('word', `The word must not be longer than ${MAX_FORM} characters.`);
    const { key, lemma } = (await wordKeys(this.db, lang, new Map([[form, [dto.word, form]]]))).get(form)!;
    const when = dateToDb(this.db, at);
    const known = await this.db.transaction(async (tx) => {
      await this.refresher.lock(tx, user.id, lang);
      const before = (await this.knownAmong(tx, user.id, lang, [key])).has(key);
      // "new" is kept as a row too, with its time: a "known" sent later from an older queue must not win.
      await sql(
        tx,
        `INSERT INTO word_statuses (user_id, lang, word, status, batch_id, updated_at) VALUES (?, ?, ?, ?, NULL, ?)
         ON CONFLICT (user_id, lang, word) DO UPDATE SET status = excluded.status, batch_id = NULL,
           updated_at = excluded.updated_at
         WHERE word_statuses.updated_at <= excluded.updated_at`,
        [user.id, lang, key, dto.status, when],
      );
      const after = (await this.knownAmong(tx, user.id, lang, [key])).has(key);
      if (after !== before) await this.refresher.follow(tx, user.id, lang, [key], after ? 1 : -1);
      return after;
    });
    // A run made or stamped by it (a first status in the language, a change while one was due) is computed.
    this.refresher.wake();
    return { data: { lang, word: form, lemma, status: known ? 'known' : 'new' } };
  }

  /**
   * "Mark the rest as known": every word of the chapter the member neither knows nor has saved becomes
   * known, under one batch that DELETE user/word-status/chapter/{id} undoes.
   */
  async markChapter(user: User, dto: ChapterMarkDto): Promise<ChapterMarkAnswer> {
    const { lang, chapterId, bookId } = await this.chapter(user, dto);
    const words = await this.chapterWords.ofChapter(chapterId);
    const keys = [...new Set(words.map((word) => word.word))];
    const known = await this.knownAmong(this.db, user.id, lang, keys);
    const learning = await this.learning(user.id, lang, new Set(words.map((word) => word.form)));
    // Sorted: two markings at once insert in the same order, so they never deadlock on PostgreSQL.
    const rest = keys.filter((key) => !known.has(key) && !learning.has(key)).sort();
    if (!rest.length) return { data: { id: null, changed: 0 } };
    const when = dateToDb(this.db, this.clock.now());
    const answer = await this.db.transaction(async (tx): Promise<ChapterMarkAnswer> => {
      await this.refresher.lock(tx, user.id, lang);
      const [batch] = await sql<Array<{ id: number | string }>>(
        tx,
        `INSERT INTO word_status_batches (user_id, book_id, chapter_no, lang, words, created_at)
         VALUES (?, ?, ?, ?, 0, ?) RETURNING id`,
        [user.id, bookId, dto.chapter_no, lang, when],
      );
      const id = Number(batch.id);
      // A word set known meanwhile (another device) keeps its own row: it is not this batch's to undo. One
      // said "new" becomes known, as LingQ's page turn does.
      for (const part of chunks(rest, ROWS_PER_INSERT))
        await sql(
          tx,
          `INSERT INTO word_statuses (user_id, lang, word, status, batch_id, updated_at)
           VALUES ${part.map(() => "(?, ?, ?, 'known', ?, ?)").join(', ')}
           ON CONFLICT (user_id, lang, word) DO UPDATE SET status = 'known', batch_id = excluded.batch_id,
             updated_at = excluded.updated_at
           WHERE word_statuses.status = 'new'`,
          part.flatMap((key) => [user.id, lang, key, id, when]),
        );
      const [{ n }] = await sql<Array<{ n: number | string }>>(
        tx,
        'SELECT COUNT(*) AS n FROM word_statuses WHERE batch_id = ?',
        [id],
      );
      if (Number(n) === 0) {
        // Everything was marked meanwhile (a second tap, another device): nothing to undo.
        await sql(tx, 'DELETE FROM word_status_batches WHERE id = ?', [id]);
        return { data: { id: null, changed: 0 } };
      }
      await sql(tx, 'UPDATE word_status_batches SET words = ? WHERE id = ?', [Number(n), id]);
      await this.refresher.follow(tx, user.id, lang, await this.batchWords(tx, id), 1);
      return { data: { id, changed: Number(n) } };
    });
    // A run made or stamped by it (a first status in the language, a change while one was due) is computed.
    this.refresher.wake();
    return answer;
  }

  /** Undoes a "Mark the rest as known": its words still known by it go back to new. */
  async undoChapter(user: User, id: number): Promise<UndoneAnswer> {
    const answer = await this.db.transaction(async (tx): Promise<UndoneAnswer> => {
      const batch = async () =>
        (
          await sql<Array<{ lang: string }>>(
            tx,
            'SELECT lang FROM word_status_batches WHERE id = ? AND user_id = ?',
            [id, user.id],
          )
        )[0];
      const found = await batch();
      if (!found) throw new NotFoundException(NOTHING_TO_UNDO);
      const lang = String(found.lang);
      // Locked before its words are read: a word of it set meanwhile has left it, and is not undone; an undo
      // of it meanwhile has taken it.
      await this.refresher.lock(tx, user.id, lang);
      if (!(await batch())) throw new NotFoundException(NOTHING_TO_UNDO);
      const words = await this.batchWords(tx, id);
      // "new" again, with the time of the undo: a "known" sent later from an older queue must not win.
      await sql(
        tx,
        "UPDATE word_statuses SET status = 'new', batch_id = NULL, updated_at = ? WHERE batch_id = ? AND user_id = ?",
        [dateToDb(tx, this.clock.now()), id, user.id],
      );
      await sql(tx, 'DELETE FROM word_status_batches WHERE id = ?', [id]);
      await this.refresher.follow(tx, user.id, lang, words, -1);
      return { data: { changed: words.length } };
    });
    // A run made or stamped by it (a first status in the language, a change while one was due) is computed.
    this.refresher.wake();
    return answer;
  }

  /**
   * `GET user/books`: the catalogue's browse for a member, each book with its coverage, and "Best for me"
   * (sort=coverage): the books nearest to 95% known first, by the precomputed coverage
   * (coverage-refresher.ts), whose time the answer gives.
   */
  async books(user: User, query: Record<string, unknown>): Promise<MemberBooksAnswer> {
    const best = query.sort === 'coverage';
    const parsed = parseBrowseQuery({ ...query, sort: best ? undefined : query.sort }, { perPage: true });
    if (!parsed.ok) throw new ValidationFailed(parsed.errors);
    if (best && parsed.filter.q)
      throw ValidationFailed.field(
        'sort',
        'Best for me does not sort a search: leave q out, or choose another sort.',
      );
    const { books, total, facets } = await this.bookRows.browse(
      parsed.filter,
      best ? { coverageFor: user.id } : {},
    );
    const shares = books.length
      ? (
          await this.coverage(
            user,
            books.map((book) => book.bookCode),
          )
        ).data
      : {};
    // The oldest computation of the member's languages; none while one was never computed.
    const [{ oldest, pending }] = await sql<
      Array<{ oldest: Date | string | null; pending: number | string }>
    >(
      this.db,
      `SELECT MIN(computed_at) AS oldest, SUM(CASE WHEN computed_at IS NULL THEN 1 ELSE 0 END) AS pending
         FROM coverage_runs WHERE user_id = ?`,
      [user.id],
    );
    return {
      data: books.map((book) => ({
        ...toPublicBook(book),
        known_share: shares[book.bookCode]?.known_share ?? 0,
        unknown_words: shares[book.bookCode]?.unknown_words ?? 0,
      })),
      meta: {
        total,
        page: parsed.filter.page,
        per_page: parsed.filter.perPage,
        facets,
        coverage_as_of: best && oldest && !Number(pending) ? dateFromDb(oldest).toISOString() : null,
      },
    };
  }

  /** The chapter's forms the member knows or is learning, for the reader's marks. */
  async ofChapter(user: User, query: ChapterWordsQuery): Promise<ChapterWordsAnswer> {
    const { lang, chapterId } = await this.chapter(user, query);
    const words = await this.chapterWords.ofChapter(chapterId);
    const known = await this.knownAmong(this.db, user.id, lang, [...new Set(words.map((word) => word.word))]);
    const learning = await this.learning(user.id, lang, new Set(words.map((word) => word.form)));
    const marks: Record<string, 'known' | 'learning'> = {};
    for (const { form, word } of words) {
      if (known.has(word)) marks[form] = 'known';
      else if (learning.has(word) || learning.has(form)) marks[form] = 'learning';
    }
    return { data: { lang, words: marks } };
  }

  /** Each book's share of running words the member knows, and its words they do not (by book code). */
  async coverage(user: User, codes: string[]): Promise<CoverageAnswer> {
    const books = await this.bookRows.byCodes(codes);
    const byLanguage = new Map<string, typeof books>();
    for (const book of books) {
      if (!book.language) continue;
      const lang = primaryTag(book.language);
      byLanguage.set(lang, [...(byLanguage.get(lang) ?? []), book]);
    }
    const data: CoverageAnswer['data'] = {};
    for (const [lang, list] of byLanguage) {
      const ids = list.map((book) => book.id);
      // Read precomputed when current (coverage-refresher.ts); else computed now, and its computation asked for.
      const state = await this.refresher.state(this.db, user.id, lang);
      if (state === 'none') await this.refresher.start(user.id, lang);
      const found =
        state === 'fresh'
          ? await this.chapterWords.storedCoverage(user.id, lang, ids)
          : await this.chapterWords.coverage(user.id, lang, ids);
      for (const book of list) {
        const counts = found.get(book.id);
        if (!counts || counts.running === 0) continue;
        data[book.bookCode] = {
          known_share: Math.round((counts.known / counts.running) * 10_000) / 10_000,
          unknown_words: counts.unknown,
        };
      }
    }
    return { data };
  }

  /** The chapter asked for, if the member may read it, with its book's language (primary subtag). */
  private async chapter(
    user: User,
    where: { book_code: string; chapter_no: number },
  ): Promise<{ lang: string; chapterId: number; bookId: number }> {
    const { book, chapters, index } = await this.access.require(
      user,
      { chapter: { bookCode: where.book_code, chapterNo: String(where.chapter_no) } },
      'use',
    );
    if (!book.language)
      throw ValidationFailed.field('book_code', 'This book has no language, so its words have no status.');
    return { lang: primaryTag(book.language), chapterId: chapters[index].id, bookId: book.id };
  }

  /** The words a chapter marking made known and nothing changed since (its undo's words). */
  private async batchWords(tx: EntityManager, id: number): Promise<string[]> {
    const rows = await sql<Array<{ word: string }>>(tx, 'SELECT word FROM word_statuses WHERE batch_id = ?', [
      id,
    ]);
    return rows.map((row) => String(row.word));
  }

  /** Which of `keys` the member knows in `lang`. */
  private async knownAmong(
    db: DataSource | EntityManager,
    userId: number,
    lang: string,
    keys: string[],
  ): Promise<Set<string>> {
    const known = new Set<string>();
    for (const part of chunks(keys, KEYS_PER_QUERY)) {
      const rows = await sql<Array<{ word: string }>>(
        db,
        `SELECT word FROM word_statuses WHERE user_id = ? AND lang = ? AND status = 'known'
           AND word IN (${part.map(() => '?').join(', ')})`,
        [userId, lang, ...part],
      );
      for (const row of rows) known.add(String(row.word));
    }
    return known;
  }

  /**
   * The member's words in learning among a chapter's forms: the one-word terms of their saved cards, each
   * as its form and its key in `lang` (a term saved from a book of another language rarely shares a form,
   * and counts the same).
   */
  private async learning(userId: number, lang: string, chapterForms: Set<string>): Promise<Set<string>> {
    const rows = await sql<Array<{ term: string }>>(
      this.db,
      "SELECT DISTINCT term FROM saved_words WHERE user_id = ? AND kind = 'word'",
      [userId],
    );
    const forms = new Map<string, string[]>();
    for (const { term } of rows) {
      const words = runningWords(String(term), lang);
      if (words.length !== 1) continue;
      const form = formOf(words[0], lang);
      // Only the chapter's forms matter: keys are looked up for those, not for every saved word.
      if (!chapterForms.has(form)) continue;
      forms.set(form, [...(forms.get(form) ?? [form]), words[0]]);
    }
    const keys = await wordKeys(this.db, lang, forms);
    const learning = new Set<string>();
    for (const [form, { key }] of keys) learning.add(form).add(key);
    return learning;
  }
}
