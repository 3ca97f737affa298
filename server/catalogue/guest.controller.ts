import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';
import { ValidationFailed } from '../common/api-error';
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
  async browse(@Query() query: Record<string, unknown>): Promise<BookBrowseAnswer> {
    const parsed = parseBrowseQuery(query, { perPage: true });
    if (!parsed.ok) throw new ValidationFailed(parsed.errors);
    return this.catalogue.browse(parsed.filter);
  }

  @Get('book-detail/:bookCode')
  @ApiOkResponse({ type: PublicBookAnswer })
  async detail(@Param('bookCode') bookCode: string): Promise<PublicBookAnswer> {
    return { data: await this.catalogue.getBook(bookCode) };
  }
}
