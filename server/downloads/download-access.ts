import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Book } from '../books/book.entity';
import { BooksRepository } from '../catalogue/repository/books.repository';
import { SignedLinks } from '../common/signed-links';
import { ReadingService } from '../reading/reading.service';
import { User } from '../users/user.entity';
import { DownloadChecks } from './download-checks';
import type { DownloadFormat, DownloadLinkAnswer, LinkQuery } from './downloads.dto';

export const BAD_LINK = 'This download link has expired or is not valid. Ask for a new one.';

/** What a signed download link grants: this book, in this format, as this member. */
const subjectOf = (bookCode: string, format: DownloadFormat, userId: number) =>
  `${bookCode}\n${format}\n${userId}`;

/**
 * Who gets what from the download routes (docs/formats.md "Who gets what"): the reading rule, asked of
 * ReadingService for a chapter that is not free, decides between the whole book and its sample. The one
 * place these routes decide it.
 */
@Injectable()
export class DownloadAccess {
  constructor(
    private readonly books: BooksRepository,
    private readonly reading: ReadingService,
    private readonly links: SignedLinks,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly checks: DownloadChecks,
  ) {}

  async book(bookCode: string): Promise<Book> {
    const book = await this.books.byCode(bookCode);
    if (!book) throw new NotFoundException('Book not found.');
    return book;
  }

  /** Whether `user` (or a visitor) gets every chapter: an administrator, or a plan that gives access. */
  async whole(user: User | undefined): Promise<boolean> {
    return (await this.reading.access(false, user)) === 'granted';
  }

  /**
   * The member asking: the one a signed link names when the request carries one (an altered, expired or
   * foreign link is a 403, never a quiet sample), else the bearer's or Basic's member, else a visitor.
   */
  async reader(
    bookCode: string,
    format: DownloadFormat,
    user: User | undefined,
    query: LinkQuery,
  ): Promise<User | undefined> {
    if (query.u === undefined && query.exp === undefined && query.sig === undefined) return user;
    const id = typeof query.u === 'string' && /^[1-9]\d{0,9}$/.test(query.u) ? Number(query.u) : null;
    if (id === null || !this.links.verify('download', subjectOf(bookCode, format, id), query.exp, query.sig))
      throw new ForbiddenException(BAD_LINK);
    const member = await this.users.findOneBy({ id });
    if (!member) throw new ForbiddenException(BAD_LINK);
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
      subjectOf(book.bookCode, format, user.id),
      `/api/v1/downloads/${code}/${format}`,
    );
    return { data: { url: `${url}&u=${user.id}`, expires_at: expiresAt.toISOString() } };
  }
}
