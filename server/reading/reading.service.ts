import { ForbiddenException, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { Response } from 'express';
import type { Book } from '../books/book.entity';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { ChaptersRepository } from '../catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../catalogue/repository/phrases.repository';
import { PhraseTranslationsRepository } from '../catalogue/repository/phrase-translations.repository';
import type { Chapter } from '../chapters/chapter.entity';
import type { Phrase } from '../phrases/phrase.entity';
import { MemberPlans } from '../billing/member-plans';
import { firstChapterNo, isFreeChapter } from '../catalogue/free-chapters';
import { Clock } from '../common/clock';
import { SignedLinks } from '../common/signed-links';
import { clipUrl } from '../media/media-urls';
import { User, UserType } from '../users/user.entity';
import { chapterAccess, PREMIUM_CHAPTER, SIGN_IN_TO_READ, type ChapterAccess } from './access';
import { MediaIndex } from './media-index';
import { TranslationIndex } from './translation-index';
import {
  toReaderPhrase,
  type ReaderChapter,
  type TableOfContents,
  type TranslatedReaderChapter,
} from './reading.dto';

/** Chapter numbers in URLs are written one way only (`1`, never `01`), so no other spelling is cached. */
const CANONICAL_NUMBER = /^[1-9]\d{0,8}$/;

/** The reader's view of the catalogue: tables of contents and chapters, with the access rule applied. */
@Injectable()
export class ReadingService {
  constructor(
    private readonly books: BooksRepository,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly translations: PhraseTranslationsRepository,
    private readonly plans: MemberPlans,
    private readonly links: SignedLinks,
    private readonly mediaIndex: MediaIndex,
    private readonly translationIndex: TranslationIndex,
    private readonly clock: Clock,
  ) {}

  /** A chapter's translation languages: from the index (no query), or read when it cannot tell. */
  private async languagesOf(book: Book, chapter: Chapter): Promise<string[]> {
    return (
      this.translationIndex.languagesOf(book.bookCode, String(chapter.chapterNo)) ??
      (await this.translations.languagesOfChapter(chapter.id))
    );
  }

  private async book(bookCode: string): Promise<Book> {
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException('Book not found.');
    return book;
  }

  /** One query for the book, one for its chapters with their counts: no query per chapter. */
  async tableOfContents(bookCode: string): Promise<TableOfContents> {
    const book = await this.book(bookCode);
    const rows = await this.chapters.summariesOfBook(book.id);
    const first = firstChapterNo(rows.map((row) => Number(row.chapter_no)));
    return {
      book_code: book.bookCode,
      title: book.title,
      chapters: rows.map((row) => ({
        chapter_no: Number(row.chapter_no),
        title: row.title,
        phrase_count: Number(row.phrase_count),
        duration_ms: Number(row.duration_ms),
        free: isFreeChapter(Number(row.chapter_no), first),
      })),
    };
  }

  /** What `user` (or a visitor) may do with a book's chapter, and the chapters around it. */
  async locate(bookCode: string, chapterParam: string, user: User | undefined) {
    if (!CANONICAL_NUMBER.test(chapterParam)) throw new NotFoundException('Chapter not found.');
    const book = await this.book(bookCode);
    const chapters = await this.chapters.ofBook(book.id);
    const index = chapters.findIndex((chapter) => chapter.chapterNo === Number(chapterParam));
    if (index === -1) throw new NotFoundException('Chapter not found.');
    const first = firstChapterNo(chapters.map((chapter) => chapter.chapterNo));
    const access = await this.access(isFreeChapter(chapters[index].chapterNo, first), user);
    return { book, chapters, index, access };
  }

  /** `free`: whether the chapter is its book's free one (catalogue/free-chapters.ts). */
  async access(free: boolean, user: User | undefined): Promise<ChapterAccess> {
    if (free) return 'free';
    const plan = user ? await this.plans.planOf(user.id) : null;
    const reader = user ? { isAdmin: user.userType === UserType.Admin, plan } : null;
    return chapterAccess(free, reader, this.clock.now());
  }

  /**
   * What the public reader page shows, the same for everyone (it is cached and shared): a free chapter
   * whole, a locked one without its phrases (the member's browser loads those with its token). Null for a
   * book or chapter that does not exist, or a number not written the canonical way.
   */
  async publicView(bookCode: string, chapterParam: string): Promise<ReaderChapter | null> {
    try {
      const { book, chapters, index, access } = await this.locate(bookCode, chapterParam, undefined);
      const chapter = chapters[index];
      const free = access === 'free';
      const phrases = free ? await this.phrases.ofChapter(chapter.id) : [];
      const languages = await this.languagesOf(book, chapter);
      // Plain URLs, so the shared page stays the same for everyone; its player asks the API again if
      // the gate refuses one (see chapter()). No translations: the browser asks the API for its reader's.
      return this.toChapter(book, chapters, index, phrases, languages, !free, () => false);
    } catch (error) {
      if (error instanceof NotFoundException) return null;
      throw error;
    }
  }

  private toChapter(
    book: Book,
    chapters: Chapter[],
    index: number,
    phrases: Phrase[],
    languages: string[],
    locked: boolean,
    signed: (path: string) => boolean,
  ): ReaderChapter {
    const chapter = chapters[index];
    return {
      book_code: book.bookCode,
      book_title: book.title,
      language: book.language,
      chapter_no: chapter.chapterNo,
      title: chapter.title,
      free: !locked,
      prev: chapters[index - 1]?.chapterNo ?? null,
      next: chapters[index + 1]?.chapterNo ?? null,
      phrases: phrases.map((phrase) =>
        toReaderPhrase(phrase, clipUrl(this.links, phrase.audioPath, signed(phrase.audioPath))),
      ),
      translation_languages: languages,
    };
  }

  /**
   * A chapter's phrases, refused with 401 or 403 when locked for this caller. A locked chapter's answer
   * depends on who asks, so it says `private, no-store` and no shared cache keeps it. Each phrase carries
   * its translations in `asked` (canonical tags) that exist.
   */
  async chapter(
    bookCode: string,
    chapterParam: string,
    asked: string[],
    user: User | undefined,
    res: Response,
  ): Promise<TranslatedReaderChapter> {
    const { book, chapters, index, access } = await this.locate(bookCode, chapterParam, user);
    if (access !== 'free') res.setHeader('Cache-Control', 'private, no-store');
    if (access === 'sign-in') throw new UnauthorizedException(SIGN_IN_TO_READ);
    if (access === 'upgrade') throw new ForbiddenException(PREMIUM_CHAPTER);
    const phrases = await this.phrases.ofChapter(chapters[index].id);
    const languages = await this.languagesOf(book, chapters[index]);
    const wanted = asked.filter((tag) => languages.includes(tag));
    const translated = await this.translations.ofPhrases(
      phrases.map((phrase) => phrase.id),
      wanted,
    );
    const free = access === 'free';
    // A free chapter's clip that the gate cannot vouch for right now (its index failed to refresh, or has
    // not heard of the clip yet) is handed out signed, so the reader still plays. Signed links expire, so
    // that answer is kept by no shared cache, ours included.
    const signed = (path: string) => !free || !this.mediaIndex.isKnownFree(path);
    if (free && phrases.some((phrase) => signed(phrase.audioPath)))
      res.setHeader('Cache-Control', 'no-store');
    const chapter = this.toChapter(book, chapters, index, phrases, languages, !free, signed);
    return {
      ...chapter,
      phrases: chapter.phrases.map((phrase) => ({
        ...phrase,
        translations: translated.get(phrase.id) ?? {},
      })),
    };
  }
}
