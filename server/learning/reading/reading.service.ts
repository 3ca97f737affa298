import { Injectable, NotFoundException } from '@nestjs/common';
import { Access, BOOK_NOT_FOUND, type Caller } from '../../content/access/access.service';
import { MediaIndex } from '../../content/access/media-index';
import type { Book } from '../../content/catalogue/entities/book.entity';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { ChaptersRepository } from '../../content/catalogue/repository/chapters.repository';
import { PhrasesRepository } from '../../content/catalogue/repository/phrases.repository';
import { PhraseTranslationsRepository } from '../../content/catalogue/repository/phrase-translations.repository';
import type { Chapter } from '../../content/catalogue/entities/chapter.entity';
import type { Phrase } from '../../content/catalogue/entities/phrase.entity';
import { firstChapterNo, isFreeChapter } from '../../content/catalogue/free-chapters';
import { SignedLinks } from '../../platform/common/signed-links';
import { clipUrl } from '../../platform/media/media-urls';
import { TranslationIndex } from '../../content/catalogue/translation-index';
import {
  toReaderPhrase,
  type ReaderChapter,
  type TableOfContents,
  type TranslatedReaderChapter,
} from './reading.dto';

/**
 * Who may keep a chapter's answer: `public` (a free chapter, the same for everyone), `private` (a locked
 * chapter: it depends on who asks), `no-store` (a free chapter whose clips are handed out signed: signed
 * links expire). The controller says it in Cache-Control.
 */
export type ChapterCaching = 'public' | 'private' | 'no-store';

/** The reader's view of the catalogue: tables of contents and chapters, with the access rule applied. */
@Injectable()
export class ReadingService {
  constructor(
    private readonly books: BooksRepository,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly translations: PhraseTranslationsRepository,
    private readonly access: Access,
    private readonly links: SignedLinks,
    private readonly mediaIndex: MediaIndex,
    private readonly translationIndex: TranslationIndex,
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
    if (!book) throw new NotFoundException(BOOK_NOT_FOUND);
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

  /**
   * What the public reader page shows, the same for everyone (it is cached and shared): a free chapter
   * whole, a locked one without its phrases (the member's browser loads those with its token). Null for a
   * book or chapter that does not exist, or a number not written the canonical way.
   */
  async publicView(bookCode: string, chapterParam: string): Promise<ReaderChapter | null> {
    try {
      const { book, chapters, index, access } = await this.access.locate(
        { bookCode, chapterNo: chapterParam },
        undefined,
      );
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
   * A chapter's phrases, refused with 401 or 403 when locked for this caller (the refusal says
   * `private, no-store`). Each phrase carries its translations in `asked` (canonical tags) that exist.
   */
  async chapter(
    bookCode: string,
    chapterParam: string,
    asked: string[],
    caller: Caller,
  ): Promise<{ chapter: TranslatedReaderChapter; caching: ChapterCaching }> {
    const { book, chapters, index, access } = await this.access.require(
      caller,
      { chapter: { bookCode, chapterNo: chapterParam } },
      'read',
    );
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
    const caching = !free
      ? 'private'
      : phrases.some((phrase) => signed(phrase.audioPath))
        ? 'no-store'
        : 'public';
    const chapter = this.toChapter(book, chapters, index, phrases, languages, !free, signed);
    return {
      caching,
      chapter: {
        ...chapter,
        phrases: chapter.phrases.map((phrase) => ({
          ...phrase,
          translations: translated.get(phrase.id) ?? {},
        })),
      },
    };
  }
}
