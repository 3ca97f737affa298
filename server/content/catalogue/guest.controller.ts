import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Public } from '../../accounts/auth/auth.decorators';
import { ValidationFailed } from '../../platform/common/api-error';
import { PAGE_SIZE, parseBrowseQuery } from './browse-query';
import { ApiBrowseQuery } from './browse-query.docs';
import {
  BookBrowseAnswer,
  CatalogueService,
  LIST_LIMIT,
  PublicBookAnswer,
  PublicBookListAnswer,
} from './catalogue.service';

/** The guest calls (docs/product.md section 7): the public catalogue, without authentication. */
@Public()
@Controller('guest')
export class GuestController {
  constructor(private readonly catalogue: CatalogueService) {}

  @Get('list-book')
  @ApiOperation({
    summary: `The newest books, at most ${LIST_LIMIT}`,
    description: `Kept for compatibility, bounded to the newest ${LIST_LIMIT} books. Browse, filter and search every book with GET guest/books.`,
  })
  @ApiOkResponse({ type: PublicBookListAnswer })
  async list(): Promise<PublicBookListAnswer> {
    return { data: await this.catalogue.listBooks() };
  }

  /** Unknown parameters are ignored; a known one with a bad value is a 422 naming it. */
  @Get('books')
  @ApiOperation({ summary: 'Browse the catalogue: filters, search, sort, pages and facet counts' })
  @ApiBrowseQuery({ defaultPerPage: PAGE_SIZE })
  @ApiOkResponse({ type: BookBrowseAnswer })
  async browse(
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BookBrowseAnswer> {
    const parsed = parseBrowseQuery(query, { perPage: true });
    if (!parsed.ok) throw new ValidationFailed(parsed.errors);
    const answer = await this.catalogue.browse(parsed.filter);
    // An empty answer (a language without books, a page past the end) is not kept by the page cache:
    // such URLs are countless, and would push the catalogue's own answers out.
    if (answer.data.length === 0) res.setHeader('Cache-Control', 'no-store');
    return answer;
  }

  @Get('book-detail/:bookCode')
  @ApiOkResponse({ type: PublicBookAnswer })
  async detail(@Param('bookCode') bookCode: string): Promise<PublicBookAnswer> {
    return { data: await this.catalogue.getBook(bookCode) };
  }
}
