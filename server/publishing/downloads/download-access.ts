import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Book } from '../../content/catalogue/entities/book.entity';
import { BooksRepository } from '../../content/catalogue/repository/books.repository';
import { SignedLinks } from '../../platform/common/signed-links';
import { Access, BOOK_NOT_FOUND } from '../../content/access/access.service';
import { User } from '../../accounts/users/user.entity';
import { DownloadChecks } from './download-checks';
import { hasLink, type DownloadFormat, type DownloadLinkAnswer, type LinkQuery } from './downloads.dto';

export const BAD_LINK = 'This download link has expired or is not valid. Ask for a new one.';
export const LINK_REVOKED =
  "This download link was made before the account's password changed. Sign in again and ask for a new one.";

/**
 * What a signed download link grants: this book, in this format, as this member while their token
 * version is this one. A password change or reset bumps the version, so the member's links stop working
 * with their sessions (docs/security.md).
 */
const subjectOf = (bookCode: string, format: DownloadFormat, userId: number, tokenVersion: number) =>
  `${bookCode}\n${format}\n${userId}\n${tokenVersion}`;

/** A whole number as a link writes one (no sign, no leading zero), or null. */
const wholeNumber = (value: unknown, from: 0 | 1): number | null =>
  typeof value === 'string' && (from === 0 ? /^(0|[1-9]\d{0,9})$/ : /^[1-9]\d{0,9}$/).test(value)
    ? Number(value)
    : null;

/**
 * Who gets what from the download routes (docs/formats.md "Who gets what"): the access rule (server/content/access/)
 * decides between the whole book and its sample; a signed link says who asks.
 */
@Injectable()
export class DownloadAccess {
  constructor(
    private readonly books: BooksRepository,
    private readonly access: Access,
    private readonly links: SignedLinks,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly checks: DownloadChecks,
  ) {}

  async book(bookCode: string): Promise<Book> {
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException(BOOK_NOT_FOUND);
    return book;
  }

  /** Whether `user` (or a visitor) gets every chapter: an administrator, or a plan that gives access. */
  async whole(user: User | undefined): Promise<boolean> {
    return this.access.everyChapter(user);
  }

  /**
   * The member asking: the one a signed link names when the request carries one (any of `exp`, `sig`,
   * `u`: `v` alone is a client's own parameter), whatever other credential comes with it (the guard takes
   * none into account then: ReadingAppAuth's `linkParams`), else the bearer's or Basic's member, else a
   * visitor. An altered, expired or foreign link, or one in the
   * format before token versions (no `v`), is a 403, never a quiet sample; so is a link made before the
   * member's password changed, with its own message.
   */
  async reader(
    bookCode: string,
    format: DownloadFormat,
    user: User | undefined,
    query: LinkQuery,
  ): Promise<User | undefined> {
    if (!hasLink(query)) return user;
    const id = wholeNumber(query.u, 1);
    const version = wholeNumber(query.v, 0);
    if (
      id === null ||
      version === null ||
      !this.links.verify('download', subjectOf(bookCode, format, id, version), query.exp, query.sig)
    )
      throw new ForbiddenException(BAD_LINK);
    const member = await this.users.findOneBy({ id });
    if (!member) throw new ForbiddenException(BAD_LINK);
    if (member.tokenVersion !== version) throw new ForbiddenException(LINK_REVOKED);
    return member;
  }

  /**
   * A short-lived link for a download button: a browser following a link sends no token. What can be told
   * cheaply is answered here (DownloadChecks), where the page can show it.
   */
  async link(bookCode: string, format: DownloadFormat, user: User): Promise<DownloadLinkAnswer> {
    const book = await this.book(bookCode);
    await this.checks.beforeLink(book, format, await this.whole(user));
    const code = encodeURIComponent(book.bookCode);
    const { url, expiresAt } = this.links.sign(
      'download',
      subjectOf(book.bookCode, format, user.id, user.tokenVersion),
      `/api/v1/downloads/${code}/${format}`,
    );
    return {
      data: { url: `${url}&u=${user.id}&v=${user.tokenVersion}`, expires_at: expiresAt.toISOString() },
    };
  }
}
