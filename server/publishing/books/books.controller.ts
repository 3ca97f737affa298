import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { MessageAnswer } from '../../platform/common/answers';
import { AdminOnly } from '../../accounts/auth/auth.decorators';
import { Uploads } from '../../http/body/multipart.interceptor';
import { ApiBrowseQuery } from '../../content/catalogue/browse-query.docs';
import { BOOK_UPLOADS, BookAnswer, CreateBookDto, UpdateBookDto } from './books.dto';
import { ADMIN_PAGE_SIZE, BookListAnswer } from './book-list.dto';
import { BooksService } from './books.service';

/** Book management. `POST book/{code}?_method=put` reaches `update` through the method override. */
@AdminOnly()
@Controller('admin/book')
export class BooksController {
  constructor(private readonly books: BooksService) {}

  @Get()
  @ApiOperation({
    summary: `A page of the books (${ADMIN_PAGE_SIZE} by default), newest first, filtered and searched like GET guest/books`,
    description: `Without parameters, the newest ${ADMIN_PAGE_SIZE} books. Unknown parameters are ignored; a known one with a bad value is a 422 naming it. No book at all: 404 "No books found"; a filter or search that finds nothing: 200 with an empty data.`,
  })
  @ApiBrowseQuery({ defaultPerPage: ADMIN_PAGE_SIZE })
  @ApiOkResponse({ type: BookListAnswer })
  list(@Query() query: Record<string, unknown>) {
    return this.books.list(query);
  }

  @Get(':bookCode')
  @ApiOkResponse({ type: BookAnswer })
  get(@Param('bookCode') bookCode: string) {
    return this.books.get(bookCode);
  }

  @Post()
  @HttpCode(200)
  @Uploads(BOOK_UPLOADS)
  @ApiOkResponse({ type: BookAnswer })
  create(@Body() dto: CreateBookDto) {
    return this.books.create(dto);
  }

  @Put(':bookCode')
  @Uploads(BOOK_UPLOADS)
  @ApiOkResponse({ type: BookAnswer })
  update(@Param('bookCode') bookCode: string, @Body() dto: UpdateBookDto) {
    return this.books.update(bookCode, dto);
  }

  @Delete(':bookCode')
  @ApiOkResponse({ type: MessageAnswer })
  remove(@Param('bookCode') bookCode: string) {
    return this.books.remove(bookCode);
  }
}
