import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';
import { ValidationFailed } from '../common/api-error';
import { MAX_PER_PAGE, MAX_QUERY_LENGTH, parseBrowseQuery, SORTS } from './browse-query';
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
  @ApiQuery({ name: 'lang', required: false, description: 'A language tag (es, pt-pt) or none.' })
  @ApiQuery({ name: 'cefr', required: false, description: 'A1, A2, B1, B2, C1, C2 or none.' })
  @ApiQuery({ name: 'difficulty', required: false, enum: ['Easy', 'Medium', 'Hard'] })
  @ApiQuery({
    name: 'q',
    required: false,
    description: `Words to find at the start of words of the title, author, narrator or description, accents and case ignored (at most ${MAX_QUERY_LENGTH} characters).`,
  })
  @ApiQuery({
    name: 'sort',
    required: false,
    enum: SORTS,
    description: 'newest (the default), title or shortest.',
  })
  @ApiQuery({ name: 'page', required: false, type: 'integer', description: 'From 1 (the default).' })
  @ApiQuery({
    name: 'per_page',
    required: false,
    type: 'integer',
    description: `1 to ${MAX_PER_PAGE}; 24 by default.`,
  })
  @ApiOkResponse({ type: BookBrowseAnswer })
  async browse(@Query() query: Record<string, unknown>): Promise<BookBrowseAnswer> {
    const parsed = parseBrowseQuery(query, { perPage: true });
    if (!parsed.ok) throw new ValidationFailed(parsed.errors as Record<string, string[]>);
    return this.catalogue.browse(parsed.filter);
  }

  @Get('book-detail/:bookCode')
  @ApiOkResponse({ type: PublicBookAnswer })
  async detail(@Param('bookCode') bookCode: string): Promise<PublicBookAnswer> {
    return { data: await this.catalogue.getBook(bookCode) };
  }
}
