import { HttpStatus, Injectable, NotFoundException } from '@nestjs/common';
import { BASIC_REALM } from '../../accounts/app-passwords/reading-app-auth';
import type { Book } from '../catalogue/entities/book.entity';
import { MemberPlans } from '../../accounts/billing/member-plans';
import { firstChapterNo, isFreeChapter } from '../catalogue/free-chapters';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { ChaptersRepository } from '../catalogue/repository/chapters.repository';
import { PhrasesRepository, type PhrasePlace } from '../catalogue/repository/phrases.repository';
import type { Chapter } from '../catalogue/entities/chapter.entity';
import { AnswerWithHeaders } from '../../platform/common/api-error';
import { UserType, type User } from '../../accounts/users/user.entity';
import { chapterAccess, PREMIUM_CHAPTER, SIGN_IN_TO_READ, type ChapterAccess } from './chapter-access';

/** Who asks: a member (an administrator is one too), or a visitor on a public route. */
export type Caller = User | undefined;

/**
 * What the caller wants, which decides how a refusal is answered. Every refusal says
 * `Cache-Control: private, no-store`: it depends on who asks, so no shared cache may keep it.
 * - `read`: a chapter's phrases (the chapter API): a visitor is asked to sign in (401), a member without
 *   access is offered the plan (403).
 * - `use`: a call on a phrase or a chapter's content (saving a word or a card, a dictation, a mark, a
 *   lookup, a word status, a reading place): 403 for anyone without access.
 * - `download`: a chapter's file for a reading app (its cues): as `read`, and the 401 invites Basic sign-in.
 */
export type AccessPurpose = 'read' | 'use' | 'download';

/** A book's chapter as a URL names it: the book's code and the chapter's number, as written. */
export interface ChapterAddress {
  bookCode: string;
  chapterNo: string;
}

/** The facts the rule weighs about one chapter, as a loaded row carries them. */
export interface ChapterPlace {
  chapter_no: number | string;
  first_chapter_no: number | string | null;
}

/** A chapter found from its address, with its book, all the book's chapters in order and the answer. */
export interface LocatedChapter {
  book: Book;
  chapters: Chapter[];
  index: number;
  access: 'free' | 'granted';
}

export type AccessTarget = { phrase: number } | { chapter: ChapterAddress };

export const PHRASE_NOT_FOUND = 'Phrase not found.';
export const BOOK_NOT_FOUND = 'Book not found.';
export const CHAPTER_NOT_FOUND = 'Chapter not found.';

/** Chapter numbers in URLs are written one way only (`1`, never `01`), so no other spelling is cached. */
const CANONICAL_NUMBER = /^[1-9]\d{0,8}$/;

const PRIVATE = { 'Cache-Control': 'private, no-store' };

/** How each purpose refuses a visitor (`sign-in`) and a member without access (`upgrade`). */
const REFUSALS: Record<AccessPurpose, Record<'sign-in' | 'upgrade', () => AnswerWithHeaders>> = {
  read: {
    'sign-in': () => new AnswerWithHeaders(HttpStatus.UNAUTHORIZED, SIGN_IN_TO_READ, PRIVATE),
    upgrade: () => new AnswerWithHeaders(HttpStatus.FORBIDDEN, PREMIUM_CHAPTER, PRIVATE),
  },
  use: {
    'sign-in': () => new AnswerWithHeaders(HttpStatus.FORBIDDEN, PREMIUM_CHAPTER, PRIVATE),
    upgrade: () => new AnswerWithHeaders(HttpStatus.FORBIDDEN, PREMIUM_CHAPTER, PRIVATE),
  },
  download: {
    // A reading app that sent nothing is told it may sign in with Basic (docs/formats.md "Who is asking").
    'sign-in': () =>
      new AnswerWithHeaders(HttpStatus.UNAUTHORIZED, SIGN_IN_TO_READ, {
        ...PRIVATE,
        'WWW-Authenticate': BASIC_REALM,
      }),
    upgrade: () => new AnswerWithHeaders(HttpStatus.FORBIDDEN, PREMIUM_CHAPTER, PRIVATE),
  },
};

/**
 * The one way to ask "may this caller have this phrase, chapter or book?" (docs/architecture.md, "One
 * access rule"). It gathers the facts from their owners (which chapter is free: the catalogue; the plan:
 * billing), applies the rule (chapter-access.ts) and answers a refusal for the purpose asked. Deny by
 * default: a locked chapter is open only to an administrator or a plan that gives access, and a purpose
 * has no other way through. `server/content/access/access-callers.spec.ts` lists every caller.
 */
@Injectable()
export class Access {
  constructor(
    private readonly books: BooksRepository,
    private readonly chapters: ChaptersRepository,
    private readonly phrases: PhrasesRepository,
    private readonly plans: MemberPlans,
  ) {}

  /** The phrase with its chapter and book, or 404 / a refusal for `purpose`. */
  require(caller: Caller, target: { phrase: number }, purpose: AccessPurpose): Promise<PhrasePlace>;
  /** The chapter with its book and neighbours, or 404 / a refusal for `purpose`. */
  require(
    caller: Caller,
    target: { chapter: ChapterAddress },
    purpose: AccessPurpose,
  ): Promise<LocatedChapter>;
  async require(
    caller: Caller,
    target: AccessTarget,
    purpose: AccessPurpose,
  ): Promise<PhrasePlace | LocatedChapter> {
    if ('phrase' in target) {
      const [place] = await this.phrases.places([target.phrase]);
      if (!place) throw new NotFoundException(PHRASE_NOT_FOUND);
      this.allow(await this.decide(caller, this.isFree(place)), purpose);
      return place;
    }
    const located = await this.locate(target.chapter, caller);
    return { ...located, access: this.allow(located.access, purpose) };
  }

  /**
   * What the caller gets at an address, without refusing: the public reader page (a visitor's view) and
   * the pages that show a lock. 404 for a book or chapter that does not exist.
   */
  async locate(
    address: ChapterAddress,
    caller: Caller,
  ): Promise<Omit<LocatedChapter, 'access'> & { access: ChapterAccess }> {
    if (!CANONICAL_NUMBER.test(address.chapterNo)) throw new NotFoundException(CHAPTER_NOT_FOUND);
    const book = await this.books.byCode(address.bookCode);
    if (!book) throw new NotFoundException(BOOK_NOT_FOUND);
    const chapters = await this.chapters.ofBook(book.id);
    const index = chapters.findIndex((chapter) => chapter.chapterNo === Number(address.chapterNo));
    if (index === -1) throw new NotFoundException(CHAPTER_NOT_FOUND);
    const first = firstChapterNo(chapters.map((chapter) => chapter.chapterNo));
    const access = await this.decide(caller, isFreeChapter(chapters[index].chapterNo, first));
    return { book, chapters, index, access };
  }

  /**
   * Whether the caller may have every chapter of any book: the whole-book editions (EPUB, M4B) rather
   * than their samples, and the full links of a feed.
   */
  async everyChapter(caller: Caller): Promise<boolean> {
    return (await this.decide(caller, false)) === 'granted';
  }

  /**
   * For rows already loaded with their chapter's place (a page of saved words, a batch of listening
   * reports): a test of each row, with the caller's plan read at most once, and only when a row is locked.
   */
  async readable<T extends ChapterPlace>(caller: Caller, rows: T[]): Promise<(row: T) => boolean> {
    const mayReadLocked = !rows.every((row) => this.isFree(row)) && (await this.everyChapter(caller));
    return (row) => this.isFree(row) || mayReadLocked;
  }

  /** Whether a row's chapter is its book's free one (content/catalogue/free-chapters.ts). */
  isFree(row: ChapterPlace): boolean {
    return isFreeChapter(
      Number(row.chapter_no),
      row.first_chapter_no === null ? null : Number(row.first_chapter_no),
    );
  }

  private async decide(caller: Caller, free: boolean): Promise<ChapterAccess> {
    if (free) return 'free';
    if (!caller) return chapterAccess(false, null);
    const isAdmin = caller.userType === UserType.Admin;
    const planGivesAccess = !isAdmin && (await this.plans.givesAccess(caller.id));
    return chapterAccess(false, { isAdmin, planGivesAccess });
  }

  private allow(access: ChapterAccess, purpose: AccessPurpose): 'free' | 'granted' {
    if (access === 'free' || access === 'granted') return access;
    throw REFUSALS[purpose][access]();
  }
}
